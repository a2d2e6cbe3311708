// `reference-host --stdio`: the built-in reference host served over the stdio harness protocol,
// so it can be driven exactly like a host in any other language (run --harness-cmd "…").
import type { Command } from 'commander';
import { CliError, EXIT } from './exit.js';
import { connectHarness } from '../harness/connect.js';
import { readingFlags } from './flags.js';
import { serveHarnessOverStdio } from '../harness/stdio/server.js';

interface ReferenceHostFlags {
  stdio?: boolean;
  incremental?: boolean;
  reading?: string[];
}

export function register(program: Command): void {
  program
    .command('reference-host')
    .description('Serve the built-in reference host over the stdio harness protocol (JSON-RPC on stdin/stdout, log on stderr)')
    .option('--stdio', 'speak the agent-hooks-ctk/1 protocol on stdin/stdout (the only transport)')
    .option('--incremental', 'serve the incremental-mediation configuration (buffered_output: false, incremental_output; §12.1 exception)')
    .option('--reading <name=value...>', 'a contested reading to serve under, e.g. errored_model_call=none (READINGS.md)')
    .action(async (flags: ReferenceHostFlags) => {
      if (!flags.stdio) {
        throw new CliError(EXIT.badInput, 'reference-host needs --stdio: it serves the reference host over the stdio harness protocol (see HARNESS.md "The stdio protocol").');
      }
      // stdout carries the protocol only: anything the host prints goes to the log (stderr).
      console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
      const { harness } = await connectHarness({ reference: flags.incremental ? 'incremental' : 'buffered', ...(flags.reading ? { readings: readingFlags(flags.reading) } : {}) });
      await serveHarnessOverStdio(harness, process.stdin, process.stdout);
      // The CTK closed stdin: done. Leftover timers (a hang fault still waiting) must not keep the process alive.
      await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
      process.exit(EXIT.ok);
    });
}
