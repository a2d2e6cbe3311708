// What each import costs a process: every module below imported alone in a fresh `node`, its CPU time (the
// child's own, bench/cpu-report.ts) minus a bare Node start's, medians over interleaved rounds. A figure includes
// everything the module imports in turn, so it is what loading that module eagerly costs every command.
// The list: the heavy dependencies, then the CTK's layers and each CLI command module.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../src/version.js';
import { median, round } from './stats.js';

export interface ImportRow {
  module: string;
  /** Median CPU ms of a process importing only this module, minus the bare start's. */
  cpu_ms_median: number;
}

export interface ImportFigures {
  rounds: number;
  bare_cpu_ms_median: number;
  rows: ImportRow[];
}

const PRELOAD = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'cpu-report.js')).href;
const DEPENDENCIES = ['commander', 'chalk', 'execa', 'ajv/dist/2020.js', 'tsx/esm/api', 'yaml', 'lossless-json', 'canonicalize'];
const LAYERS = [
  'src/version.js',
  'src/core/index.js',
  'src/host/index.js',
  'src/ctk/load.js',
  'src/ctk/runner.js',
  'src/harness/reference-harness.js',
  'src/harness/in-process.js',
  'src/harness/stdio/client.js',
  'src/report/terminal.js',
  'src/report/write.js',
];

function modules(): string[] {
  const cli = readdirSync(path.join(PACKAGE_ROOT, 'dist', 'src', 'cli'))
    .filter((f) => f.endsWith('-command.js'))
    .sort()
    .map((f) => `src/cli/${f}`);
  return [...DEPENDENCIES, ...LAYERS, ...cli, 'src/cli/main.js'];
}

function specifier(module: string): string {
  return module.startsWith('src/') ? pathToFileURL(path.join(PACKAGE_ROOT, 'dist', module)).href : module;
}

function cpuOf(code: string | undefined, cpuFile: string): number {
  rmSync(cpuFile, { force: true });
  const args = ['--import', PRELOAD, ...(code === undefined ? ['-e', ''] : ['--input-type=module', '-e', code])];
  const r = spawnSync(process.execPath, args, { cwd: PACKAGE_ROOT, env: { ...process.env, CTK_BENCH_CPU_FILE: cpuFile }, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bench: importing failed (${code ?? 'bare'}): ${r.stderr.slice(0, 300)}`);
  return (JSON.parse(readFileSync(cpuFile, 'utf8')) as { cpu_us: number }).cpu_us / 1000;
}

export function benchImports(rounds = 5): ImportFigures {
  const list = modules();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ctk-bench-imports-'));
  const cpuFile = path.join(dir, 'cpu.json');
  const bare: number[] = [];
  const each = list.map(() => [] as number[]);
  try {
    for (let r = 0; r < rounds; r++) {
      bare.push(cpuOf(undefined, cpuFile));
      list.forEach((m, i) => each[i]!.push(cpuOf(`await import(${JSON.stringify(specifier(m))});`, cpuFile)));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const b = median(bare);
  return { rounds, bare_cpu_ms_median: round(b, 1), rows: list.map((module, i) => ({ module, cpu_ms_median: round(median(each[i]!) - b, 1) })) };
}
