// Flag checks shared by the commands: each turns a bad value into a CliError(EXIT.badInput) naming the flag.
import { mkdirSync, statSync } from 'node:fs';
import { resolveReadings } from '../harness/declared-choices.js';
import { CliError, EXIT } from './exit.js';
import { defaultVectorPaths, display, loadVectors, selectVectors, VectorLoadError } from '../ctk/load.js';
import type { LoadedVector } from '../ctk/vector.js';
import type { HarnessChoice } from '../harness/connect.js';
import { ExpectedFailuresError, readBaselineFile, resolveBaseline, type ResolvedBaseline } from '../results/expected-failures.js';
import { parseShard, ShardError, type Shard } from '../ctk/shard.js';
import { SelectionError, selectSuite, type Selected, type SuiteFilters } from '../ctk/selection.js';
import { FILE_REPORTERS } from '../report/write.js';


/** The largest delay a Node timer holds; beyond it Node fires after 1 ms (TimeoutOverflowWarning). */
export const MAX_TIMER_MS = 2_147_483_647;

/** `--timeout <ms>`: decimal digits only (no 0x10, 1e3, 1.5), 1 … MAX_TIMER_MS. */
export function parseTimeoutMs(value: string, flag = '--timeout'): number {
  const n = /^[0-9]+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) {
    throw new CliError(EXIT.badInput, `${flag}: expected a positive whole number of milliseconds (e.g. 30000), got ${JSON.stringify(value)}`);
  }
  if (n > MAX_TIMER_MS) throw new CliError(EXIT.badInput, `${flag}: ${value} ms is longer than a timer can wait; give at most ${MAX_TIMER_MS} (about 24.8 days)`);
  return n;
}

/** A flag given with an empty value (`--harness ""`) must not read as "not given". */
export function requireNonEmpty(value: string | undefined, flag: string, what: string): void {
  if (value !== undefined && value.trim() === '') throw new CliError(EXIT.badInput, `${flag}: the value is empty; give ${what}`);
}

/**
 * Creates an output directory up front (mkdir -p), so a bad --out or --trace is refused before a
 * long run instead of after it. Throws exit 2 naming the flag when the path is or runs through a file.
 */
export function prepareOutputDir(dir: string, flag: string): void {
  if (dir.trim() === '') throw new CliError(EXIT.badInput, `${flag}: the value is empty; give a directory`);
  let existing;
  try {
    existing = statSync(dir);
  } catch {
    existing = undefined;
  }
  if (existing && !existing.isDirectory()) throw new CliError(EXIT.badInput, `${flag} ${dir}: exists and is not a directory; give a directory (it is created if missing)`);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOTDIR' || code === 'EEXIST' ? 'a parent of it is a file, not a directory' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? String(error));
    throw new CliError(EXIT.badInput, `${flag} ${dir}: cannot create the directory (${why}); give a writable directory`);
  }
}

/** The harness flags of `run` and `fuzz` as a choice for connectHarness (host log lines to stderr with --verbose). */
export function harnessChoice(
  flags: { harness?: string; harnessCmd?: string; reference?: string; surface?: string; reading?: string[]; verbose?: boolean },
  timeoutMs: number,
): HarnessChoice {
  const choice: HarnessChoice = { timeoutMs };
  if (flags.reading !== undefined) choice.readings = readingFlags(flags.reading);
  if (flags.harness !== undefined) choice.module = flags.harness;
  if (flags.harnessCmd !== undefined) choice.command = flags.harnessCmd;
  if (flags.reference !== undefined) choice.reference = flags.reference;
  if (flags.surface !== undefined) choice.surfaceFile = flags.surface;
  if (flags.verbose) choice.onLog = (line: string) => process.stderr.write(`[host] ${line}\n`);
  return choice;
}

/**
 * `--reading NAME=VALUE` (repeatable): the contested readings (src/core/readings.ts) the built-in reference host runs
 * under. A malformed pair, an unknown reading or value is exit 2 naming it.
 */
export function readingFlags(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new CliError(EXIT.badInput, `--reading ${JSON.stringify(pair)}: give NAME=VALUE, e.g. --reading errored_model_call=none (READINGS.md)`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const checked = resolveReadings(out);
  if (!checked.ok) throw new CliError(EXIT.badInput, `--reading ${checked.name}: ${checked.problem}`);
  return out;
}

/** Loads the `--vectors` paths (default: the package suite); load problems are exit 2, listing at most `shown` of them (validate lists all). */
export function loadOrExit(paths: string[] | undefined, shown = 20): LoadedVector[] {
  let vectors: LoadedVector[];
  const used = paths && paths.length > 0 ? paths : defaultVectorPaths();
  try {
    vectors = loadVectors(used);
  } catch (error) {
    if (error instanceof VectorLoadError) {
      const n = error.problems.length;
      const listed = error.problems.slice(0, shown);
      const rest = n - listed.length;
      throw new CliError(
        EXIT.badInput,
        `cannot use the vectors (${n} problem${n === 1 ? '' : 's'}); nothing was run:\n  ${listed.join('\n  ')}` +
          (rest > 0 ? `\n  … and ${rest} more (agent-hooks-ctk validate ${used.map(display).join(' ')} lists every one)` : ''),
      );
    }
    throw error;
  }
  if (vectors.length === 0) throw new CliError(EXIT.badInput, `no vector files (*.json) found in ${used.map(display).join(', ')}`);
  return vectors;
}

/** `--grep REGEX` and `--part PART…`: the vectors they select (an invalid regular expression is exit 2). */
export function selectOrExit(vectors: LoadedVector[], grep: string | undefined, parts: string[] | undefined): LoadedVector[] {
  let match: RegExp | undefined;
  if (grep !== undefined) {
    try {
      match = new RegExp(grep);
    } catch (error) {
      throw new CliError(EXIT.badInput, `--grep: invalid regular expression (${(error as Error).message})`);
    }
  }
  return selectVectors(vectors, { ...(match ? { match } : {}), ...(parts ? { parts } : {}) });
}

/** `--shard i/n` (exit 2 on anything else). */
export function shardOrExit(value: string | undefined): Shard | undefined {
  if (value === undefined) return undefined;
  try {
    return parseShard(value);
  } catch (error) {
    if (error instanceof ShardError) throw new CliError(EXIT.badInput, `--shard: ${error.message}`);
    throw error;
  }
}

/** The filters and the shard of `run` applied to the loaded suite (a filter that cannot apply is exit 2). */
export function selectSuiteOrExit(all: readonly LoadedVector[], filters: SuiteFilters): Selected {
  try {
    return selectSuite(all, filters);
  } catch (error) {
    if (error instanceof SelectionError) throw new CliError(EXIT.badInput, error.message);
    throw error;
  }
}

/** `--expected-failures FILE` read and resolved against the loaded suite's ids (exit 2 on a bad file or an unknown id). */
export function baselineOrExit(file: string | undefined, all: readonly LoadedVector[]): ResolvedBaseline | undefined {
  if (file === undefined) return undefined;
  requireNonEmpty(file, '--expected-failures', 'the YAML or JSON file that lists the expected failures');
  try {
    return resolveBaseline(readBaselineFile(file), all.map((lv) => lv.vector.id));
  } catch (error) {
    if (error instanceof ExpectedFailuresError) throw new CliError(EXIT.badInput, error.message);
    throw error;
  }
}

/** `--reporter a,b,c`: terminal (printed) and the file reporters (written with --out); unknown names are exit 2. */
export function parseReporters(list: string): { terminal: boolean; files: string[] } {
  const names = list.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new CliError(EXIT.badInput, `--reporter: no reporter named; give a comma-separated list of terminal, ${FILE_REPORTERS.join(', ')}`);
  const known = new Set<string>(['terminal', ...FILE_REPORTERS]);
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0) throw new CliError(EXIT.badInput, `--reporter: unknown reporter ${unknown.join(', ')} (known: ${[...known].join(', ')})`);
  return { terminal: names.includes('terminal'), files: names.filter((n) => n !== 'terminal') };
}

