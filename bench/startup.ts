// Whole-process start-up, side by side with a bare Node start: `--version`, a one-vector run, the published-grammar
// samples (when given) and the whole suite, each started as a user would (bin/agent-hooks-ctk.js), interleaved round
// by round so machine drift falls on all of them alike. Two clocks: the wall time the parent sees from spawn to exit
// (what a user waits), and the child's own CPU time (bench/cpu-report.ts, preloaded into every child, the bare one
// included), which other processes on a loaded machine do not inflate.
import { readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from '../src/version.js';
import { childRunner } from './child.js';
import { median, round } from './stats.js';

export interface StartupRow {
  name: string;
  argv: string[];
  wall_ms_median: number;
  cpu_ms_median: number;
  /** wall_ms_median / the bare Node start's. */
  wall_ratio: number;
  /** cpu_ms_median / the bare Node start's. */
  cpu_ratio: number;
}

export interface StartupFigures {
  rounds: number;
  /** The machine's 1-minute load average when the measurement started and ended. */
  load_average: [number, number];
  rows: StartupRow[];
}

const CLI = path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js');

/** The first vector of the package's own suite, by file name: a one-vector run. */
export function oneVectorFile(): string {
  const dir = path.join(PACKAGE_ROOT, 'vectors');
  const first = readdirSync(dir).filter((f) => f.endsWith('.json')).sort()[0];
  if (first === undefined) throw new Error('bench: vectors/ holds no vector');
  return path.join(dir, first);
}

interface Command {
  name: string;
  args: string[];
}

function commands(samples: string | undefined): Command[] {
  const list: Command[] = [
    { name: 'bare node -e ""', args: ['-e', ''] },
    { name: '--version', args: [CLI, '--version'] },
    { name: 'run, one vector', args: [CLI, 'run', '--vectors', oneVectorFile()] },
  ];
  if (samples !== undefined) list.push({ name: 'run, the published-grammar samples', args: [CLI, 'run', '--vectors', samples] });
  list.push({ name: 'run, whole suite', args: [CLI, 'run'] });
  return list;
}

export function benchStartup(opts: { rounds?: number; samples?: string } = {}): StartupFigures {
  const rounds = opts.rounds ?? 7;
  const cmds = commands(opts.samples);
  const child = childRunner();
  const loadStart = os.loadavg()[0]!;
  const walls = cmds.map(() => [] as number[]);
  const cpus = cmds.map(() => [] as number[]);
  try {
    for (const cmd of cmds) child.run(cmd.args); // warm the file cache
    for (let r = 0; r < rounds; r++) {
      cmds.forEach((cmd, i) => {
        const { wall_ms, cpu_ms } = child.run(cmd.args);
        walls[i]!.push(wall_ms);
        cpus[i]!.push(cpu_ms);
      });
    }
  } finally {
    child.close();
  }
  const bareWall = median(walls[0]!);
  const bareCpu = median(cpus[0]!);
  return {
    rounds,
    load_average: [round(loadStart), round(os.loadavg()[0]!)],
    rows: cmds.map((cmd, i) => ({
      name: cmd.name,
      argv: cmd.args.map((a) => (a === opts.samples ? '<samples>' : a.startsWith(PACKAGE_ROOT) ? path.relative(PACKAGE_ROOT, a) : a)),
      wall_ms_median: round(median(walls[i]!), 1),
      cpu_ms_median: round(median(cpus[i]!), 1),
      wall_ratio: round(median(walls[i]!) / bareWall),
      cpu_ratio: round(median(cpus[i]!) / bareCpu),
    })),
  };
}
