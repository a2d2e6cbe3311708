// What each import costs a process: every module below imported alone in a fresh `node`, its CPU time (the
// child's own, bench/cpu-report.ts) minus a bare Node start's, medians over interleaved rounds. A figure includes
// everything the module imports in turn, so it is what loading that module eagerly costs every command.
// The list: the heavy dependencies, then the CTK's layers and each CLI command module.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../src/version.js';
import { childRunner } from './child.js';
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

export function benchImports(rounds = 5): ImportFigures {
  const list = modules();
  const child = childRunner();
  const cpuOf = (code: string | undefined) => child.run(code === undefined ? ['-e', ''] : ['--input-type=module', '-e', code], PACKAGE_ROOT).cpu_ms;
  const bare: number[] = [];
  const each = list.map(() => [] as number[]);
  try {
    for (let r = 0; r < rounds; r++) {
      bare.push(cpuOf(undefined));
      list.forEach((m, i) => each[i]!.push(cpuOf(`await import(${JSON.stringify(specifier(m))});`)));
    }
  } finally {
    child.close();
  }
  const b = median(bare);
  return { rounds, bare_cpu_ms_median: round(b, 1), rows: list.map((module, i) => ({ module, cpu_ms_median: round(median(each[i]!) - b, 1) })) };
}
