// `fuzz`: differential conformance fuzzing against the reference host (src/ctk/fuzz/). Thin: flags, the host
// (the same choice as `run`), progress, files. Exit 0 no divergence, 1 divergence (or nothing ran), 2 bad input.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { CliError, EXIT, EXIT_CODES_HELP, exitDespiteLeftovers } from './exit.js';
import { harnessChoice, parseTimeoutMs, prepareOutputDir, requireNonEmpty, shardOrExit } from './flags.js';
import { selectMutants } from './mutant-flags.js';
import { closeHarness, connectHarness, describeSurface, type ConnectedHarness } from '../harness/connect.js';
import { containHarness } from '../harness/containment.js';
import { display } from '../ctk/load.js';
import { stringifyLossless } from '../ctk/json.js';
import { DEFAULT_FUZZ_TIMEOUT_MS, DEFAULT_RUNS, runCampaign, type FuzzHost } from '../ctk/fuzz/fuzz.js';
import { DEFAULT_HANG_TIMEOUT_MS } from '../ctk/fuzz/generate.js';
import { DEFAULT_MUTANT_BUDGET, fuzzMutants } from '../ctk/fuzz/mutant-campaigns.js';
import { createOracle, OracleConfigError } from '../ctk/fuzz/oracle.js';
import { FuzzSurfaceError } from '../ctk/fuzz/space.js';
import { buildMutantsSummary, buildSummary, renderMutantsSummary, renderSummary } from '../ctk/fuzz/summary.js';

interface FuzzFlags {
  harness?: string;
  harnessCmd?: string;
  surface?: string;
  seed: string;
  runs?: string;
  time?: string;
  jobs: string;
  out?: string;
  timeout: string;
  hangTimeout: string;
  case?: string;
  shard?: string;
  shrink: boolean;
  shrinkBudget: string;
  json?: boolean;
  verbose?: boolean;
  mutants?: boolean;
  only?: string[];
  budget: string;
  require: string;
}

export function register(program: Command): void {
  program
    .command('fuzz')
    .description('Differential fuzzing: generate valid vectors over the declared surface, compare the host with the reference host, shrink each divergence to a vector')
    .option('--harness <path>', 'in-process harness module (JS or TS), as for run')
    .option('--harness-cmd <cmd>', 'a host speaking the stdio protocol, as for run')
    .option('--surface <file>', 'YAML/JSON declared surface overriding what the harness describes')
    .option('--seed <n>', 'campaign seed: the same seed and host give the same cases and result', '1')
    .option('--runs <n>', `number of cases (default ${DEFAULT_RUNS})`)
    .option('--time <seconds>', 'run cases for this long instead of --runs')
    .option('--jobs <n>', 'cases run at once (one host harness and one oracle each)', '1')
    .option('--out <dir>', 'write fuzz-summary.json, divergences/<id>.json and unconfirmed/<id>.json here')
    .option('--timeout <ms>', 'per-case deadline over setup + run on the host', String(DEFAULT_FUZZ_TIMEOUT_MS))
    .option('--hang-timeout <ms>', 'interceptor/resolver timeout of a case that scripts a hang', String(DEFAULT_HANG_TIMEOUT_MS))
    .option('--case <n>', 'replay one case of the seed (as a divergence title names it)')
    .option('--shard <i/n>', 'run only the cases k of the seed with k mod n = i − 1: the n shards of one --runs run exactly its cases')
    .option('--no-shrink', 'do not shrink divergences (no vectors are written)')
    .option('--shrink-budget <n>', 'most executions one shrink may spend', '600')
    .option('--json', 'print the summary as JSON on stdout')
    .option('--verbose', "print the stdio host's log lines")
    .option('--mutants', 'score the fuzzer on every selftest mutant instead of fuzzing a host')
    .option('--only <ids...>', 'with --mutants: only these mutant ids')
    .option('--budget <n>', 'with --mutants: cases per mutant', String(DEFAULT_MUTANT_BUDGET))
    .option('--require <percent>', 'with --mutants: exit 1 below this detection rate', '90')
    .addHelpText(
      'after',
      `
Each case is generated from (seed, case index) within the host's declared surface and run on the host
and on the built-in reference host (the oracle, configured with the host's declared postures). Traces are
compared after normalizing what the spec lets vary (timestamps, ids, identity values, the interleaving
of parallel tool calls). The first difference is a divergence, named by field and by the clause of the
requirement it touches (vectors/requirements.yaml). A divergence means the host differs from the
reference host; it does not prove the host wrong. Each divergence group's first case is shrunk and, with
--out, written as a vector you can run (agent-hooks-ctk run --vectors DIR/divergences) and commit.

Examples:
  agent-hooks-ctk fuzz --harness-cmd "python3 host.py" --runs 5000 --jobs 2 --out fuzz-out
  agent-hooks-ctk fuzz --harness ./my-host.ts --seed 7 --case 412     # replay one case
  agent-hooks-ctk fuzz --harness ./my-host.ts --runs 3000 --shard 2/3   # one of three CI jobs
  agent-hooks-ctk fuzz --mutants --budget 2000 --jobs 2

Exit codes: 0 no divergence (--mutants: detection at or above --require); 1 a divergence, or nothing ran;
2 bad input (a bad flag, a harness that cannot load, an unusable surface); 3 an internal CTK error.
${EXIT_CODES_HELP}`,
    )
    .action(async (flags: FuzzFlags) => {
      process.exitCode = flags.mutants ? await mutantsCommand(flags) : await fuzzCommand(flags);
      if (flags.harness !== undefined) exitDespiteLeftovers(flags.harness);
    });
}

function positiveInt(value: string, flag: string, max = Number.MAX_SAFE_INTEGER): number {
  const n = /^[0-9]+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0 || n > max) throw new CliError(EXIT.badInput, `${flag}: expected a whole number from 1 to ${max}, got ${JSON.stringify(value)}`);
  return n;
}

function parseSeed(value: string): string {
  if (!/^[0-9]{1,15}$/.test(value)) throw new CliError(EXIT.badInput, `--seed: expected a whole number (up to 15 digits), got ${JSON.stringify(value)}`);
  return String(Number(value));
}

interface Common {
  seed: string;
  jobs: number;
  timeoutMs: number;
  hangTimeoutMs: number;
  shrinkBudget: number;
}

function commonFlags(flags: FuzzFlags): Common {
  return {
    seed: parseSeed(flags.seed),
    jobs: positiveInt(flags.jobs, '--jobs', 64),
    timeoutMs: parseTimeoutMs(flags.timeout),
    hangTimeoutMs: parseTimeoutMs(flags.hangTimeout, '--hang-timeout'),
    shrinkBudget: positiveInt(flags.shrinkBudget, '--shrink-budget'),
  };
}

function progress(enabled: boolean) {
  let last = 0;
  return {
    update(text: string): void {
      if (!enabled) return;
      process.stderr.write('\r' + text.padEnd(last));
      last = text.length;
    },
    clear(): void {
      if (enabled && last > 0) process.stderr.write('\r' + ' '.repeat(last) + '\r');
      last = 0;
    },
  };
}

function writeVector(dir: string, v: { id: string }, folder = 'divergences'): string {
  const file = path.join(dir, folder, `${v.id}.json`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, stringifyLossless(v, 2) + '\n');
  return file;
}

async function fuzzCommand(flags: FuzzFlags): Promise<number> {
  for (const f of ['only'] as const) if (flags[f] !== undefined) throw new CliError(EXIT.badInput, `--${f} goes with --mutants`);
  requireNonEmpty(flags.harness, '--harness', 'the path of a harness module (HARNESS.md)');
  requireNonEmpty(flags.harnessCmd, '--harness-cmd', 'the command line that starts your stdio host (HARNESS.md)');
  const c = commonFlags(flags);
  if (flags.runs !== undefined && flags.time !== undefined) throw new CliError(EXIT.badInput, 'give either --runs or --time, not both');
  const runs = flags.runs !== undefined ? positiveInt(flags.runs, '--runs') : undefined;
  let timeMs: number | undefined;
  if (flags.time !== undefined) {
    const s = /^[0-9]+(\.[0-9]+)?$/.test(flags.time) ? Number(flags.time) : NaN;
    if (!(s > 0) || s > 30 * 24 * 3600) throw new CliError(EXIT.badInput, `--time: expected a positive number of seconds, got ${JSON.stringify(flags.time)}`);
    timeMs = s * 1000;
  }
  const onlyCase = flags.case !== undefined ? positiveIntOrZero(flags.case, '--case') : undefined;
  const shard = shardOrExit(flags.shard);
  if (shard !== undefined && onlyCase !== undefined) throw new CliError(EXIT.badInput, '--case replays one case of the seed; it takes no --shard');
  if (shard !== undefined && runs !== undefined && runs < shard.count)
    throw new CliError(EXIT.badInput, `--shard ${shard.index}/${shard.count}: --runs ${runs} makes fewer cases than shards; give at most ${runs} shards`);
  if (flags.out !== undefined) prepareOutputDir(flags.out, '--out');

  const containment = containHarness();
  const { log, info, debug } = console;
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
  // The campaign closes every harness handed to it; the first one is ours until handed.
  let first: ConnectedHarness | undefined;
  let handed = false;
  try {
    first = await connectHarness(harnessChoice(flags, c.timeoutMs));
    const surface = await describeSurface(first, flags.surface, c.timeoutMs);
    let oracle;
    try {
      oracle = await createOracle(surface);
    } catch (error) {
      if (error instanceof OracleConfigError) throw new CliError(EXIT.badInput, `fuzz: ${error.message}`);
      throw error;
    }
    const firstHarness = first.harness;
    const host: FuzzHost = {
      label: first.label,
      surface,
      create: async () => {
        if (!handed) {
          handed = true;
          return firstHarness;
        }
        return (await connectHarness(harnessChoice(flags, c.timeoutMs))).harness;
      },
      takeStrayErrors: () => containment.take(),
    };
    const bar = progress(process.stderr.isTTY === true && !flags.json);
    let result;
    try {
      result = await runCampaign({
        host,
        oracle,
        seed: c.seed,
        ...(runs !== undefined ? { runs } : {}),
        ...(timeMs !== undefined ? { timeMs } : {}),
        ...(onlyCase !== undefined ? { onlyCase } : {}),
        ...(shard !== undefined ? { shard } : {}),
        jobs: c.jobs,
        timeoutMs: c.timeoutMs,
        hangTimeoutMs: c.hangTimeoutMs,
        shrink: flags.shrink,
        shrinkBudget: c.shrinkBudget,
        onProgress: (p) => bar.update(`  [${p.done}${p.total !== undefined ? `/${p.total}` : ''}] ${((p.done / Math.max(p.elapsedMs, 1)) * 1000).toFixed(0)} cases/s${p.divergent > 0 ? ` · ${p.divergent} divergent` : ''}`),
      });
    } catch (error) {
      if (error instanceof FuzzSurfaceError) throw new CliError(EXIT.badInput, `fuzz: invalid declared surface for fuzzing: ${error.message}`);
      throw error;
    } finally {
      bar.clear();
    }
    const summary = buildSummary(result, { name: surface.name, version: surface.version }, c.jobs);
    if (flags.out !== undefined) {
      for (const [i, g] of result.groups.entries()) {
        if (g.shrunk && summary.divergences[i]!.vector) summary.divergences[i]!.vector!.file = display(writeVector(flags.out, g.shrunk.vector));
      }
      // An unconfirmed group's vector fails on the reference host itself: written apart, for a CTK bug report.
      for (const [i, g] of result.unconfirmed.entries()) {
        if (g.shrunk && summary.unconfirmed[i]!.vector) summary.unconfirmed[i]!.vector!.file = display(writeVector(flags.out, g.shrunk.vector, 'unconfirmed'));
      }
      writeFileSync(path.join(flags.out, 'fuzz-summary.json'), JSON.stringify(summary, null, 2) + '\n');
    }
    process.stdout.write(flags.json ? JSON.stringify(summary, null, 2) + '\n' : renderSummary(summary));
    if (result.cases === 0) {
      process.stderr.write('nothing ran: no case completed (is --time long enough?)\n');
      return EXIT.failed;
    }
    if (result.groups.some((g) => g.kind === 'self_contradiction')) {
      process.stderr.write(`fuzz: the host contradicts itself on ${summary.self_contradicting_cases} case${summary.self_contradicting_cases === 1 ? '' : 's'} (its interceptors were shown one thing and its model or tools got another): fix that first; its differences from the reference host follow from it or are listed after it\n`);
      return EXIT.failed;
    }
    if (result.groups.length > 0) return EXIT.failed;
    if (result.unconfirmed.length > 0) {
      // The host differed, but the CTK could not write a vector its own reference passes: not a pass, the CTK's fault.
      process.stderr.write('fuzz: every difference left is unconfirmed (the reference host fails the vector written from it): an internal CTK problem, not a pass\n');
      return EXIT.internal;
    }
    return EXIT.ok;
  } finally {
    if (first && !handed) {
      const warning = await closeHarness(first, c.timeoutMs);
      if (warning) process.stderr.write(`${warning}\n`);
    }
    Object.assign(console, { log, info, debug });
    containment.release();
  }
}

function positiveIntOrZero(value: string, flag: string): number {
  const n = /^[0-9]+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) throw new CliError(EXIT.badInput, `${flag}: expected a case index (0, 1, 2 …), got ${JSON.stringify(value)}`);
  return n;
}

async function mutantsCommand(flags: FuzzFlags): Promise<number> {
  const misplaced = (['harness', 'harnessCmd', 'surface', 'runs', 'time', 'case', 'shard'] as const).filter((f) => flags[f] !== undefined);
  if (misplaced.length > 0)
    throw new CliError(EXIT.badInput, `--mutants fuzzes the selftest mutants against the reference host; it takes no ${misplaced.map((f) => `--${f.replace(/[A-Z]/g, (x) => '-' + x.toLowerCase())}`).join(', ')} (use --budget for cases per mutant)`);
  const c = commonFlags(flags);
  const budget = positiveInt(flags.budget, '--budget');
  const required = /^[0-9]+(\.[0-9]+)?$/.test(flags.require) ? Number(flags.require) : NaN;
  if (!(required >= 0 && required <= 100)) throw new CliError(EXIT.badInput, `--require: expected a percentage from 0 to 100, got ${JSON.stringify(flags.require)}`);
  const mutants = selectMutants(flags.only);
  if (flags.out !== undefined) prepareOutputDir(flags.out, '--out');
  const bar = progress(process.stderr.isTTY === true && !flags.json);
  const started = performance.now();
  const { rows, vectors } = await fuzzMutants({
    mutants,
    seed: c.seed,
    budget,
    jobs: c.jobs,
    timeoutMs: c.timeoutMs,
    hangTimeoutMs: c.hangTimeoutMs,
    shrink: flags.shrink,
    shrinkBudget: c.shrinkBudget,
    onMutant: (row, done, total) => bar.update(`  [${done}/${total}] ${row.id}: ${row.detected ? 'detected' : 'missed'}`),
  });
  bar.clear();
  const summary = buildMutantsSummary(rows, c.seed, budget, performance.now() - started);
  if (flags.out !== undefined) {
    for (const row of summary.mutants) {
      const shrunk = vectors.get(row.id);
      if (shrunk) row.vector_file = display(writeVector(flags.out, shrunk.vector));
    }
    writeFileSync(path.join(flags.out, 'fuzz-mutants.json'), JSON.stringify(summary, null, 2) + '\n');
  }
  process.stdout.write(flags.json ? JSON.stringify(summary, null, 2) + '\n' : renderMutantsSummary(summary));
  return summary.detection_rate * 100 >= required ? EXIT.ok : EXIT.failed;
}
