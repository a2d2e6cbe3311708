// One measured child process for the start-up figures: `node --import cpu-report.js ARGS`, timed from spawn to
// exit by this process (wall) and by the child itself (its own CPU time, written by bench/cpu-report.ts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PRELOAD = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'cpu-report.js')).href;

export interface ChildRunner {
  /** Runs `node ARGS` to completion; throws unless it exits 0. */
  run(args: readonly string[], cwd?: string): { wall_ms: number; cpu_ms: number };
  close(): void;
}

export function childRunner(): ChildRunner {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ctk-bench-child-'));
  const cpuFile = path.join(dir, 'cpu.json');
  return {
    run(args, cwd) {
      rmSync(cpuFile, { force: true });
      const start = performance.now();
      const r = spawnSync(process.execPath, ['--import', PRELOAD, ...args], {
        ...(cwd !== undefined ? { cwd } : {}),
        env: { ...process.env, CTK_BENCH_CPU_FILE: cpuFile, NO_COLOR: '1' },
        stdio: ['ignore', 'ignore', 'pipe'],
        encoding: 'utf8',
      });
      const wall = performance.now() - start;
      if (r.status !== 0) throw new Error(`bench: node ${args.join(' ').slice(0, 200)} exited ${r.status ?? r.signal}: ${r.stderr.slice(0, 400)}`);
      const { cpu_us } = JSON.parse(readFileSync(cpuFile, 'utf8')) as { cpu_us: number };
      return { wall_ms: wall, cpu_ms: cpu_us / 1000 };
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}
