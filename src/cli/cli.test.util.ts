// Test utility: the CLI run in this process with stdout/stderr captured (fast; for tests that need no child process).
import { main } from './main.js';

export async function runCliInProcess(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = process.stdout.write.bind(process.stdout);
  const e = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((s: string) => ((out += String(s)), true)) as typeof process.stdout.write;
  process.stderr.write = ((s: string) => ((err += String(s)), true)) as typeof process.stderr.write;
  try {
    process.exitCode = undefined;
    const code = await main(['node', 'agent-hooks-ctk', ...args]);
    return { code, out, err };
  } finally {
    process.stdout.write = o;
    process.stderr.write = e;
    process.exitCode = undefined;
  }
}
