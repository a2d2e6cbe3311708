// `run`: load vectors, pick the harness, run, render, write reports. Exit 0 / 1 / 2 (src/cli/exit.ts).
import type { Command } from 'commander';
import { CliError, EXIT, EXIT_CODES_HELP, exitDespiteLeftovers } from './exit.js';
import { defaultVectorPaths, display } from '../ctk/load.js';
import { runSuite } from '../ctk/runner.js';
import { verdictOf } from '../results/tally.js';
import type { LoadedVector } from '../ctk/vector.js';
import { closeHarness, connectHarness, describeSurface } from '../harness/connect.js';
import { containHarness, type Containment } from '../harness/containment.js';
import { colorEnabled, createProgressLine, renderTerminal } from '../report/terminal.js';
import { FILE_REPORTERS, ReportWriteError, writeReports } from '../report/write.js';
import { baselineOrExit, harnessChoice, loadOrExit, parseReporters, parseTimeoutMs, prepareOutputDir, requireNonEmpty, selectSuiteOrExit, shardOrExit } from './flags.js';
import type { ResolvedBaseline } from '../results/expected-failures.js';
import type { SuiteSelection } from '../results/model.js';
import { tally, tallyLine } from '../results/tally.js';

interface RunFlags {
  harness?: string;
  harnessCmd?: string;
  reference?: string;
  surface?: string;
  reading?: string[];
  vectors?: string[];
  grep?: string;
  part?: string[];
  excludeGrep?: string;
  excludePart?: string[];
  capability?: string[];
  shard?: string;
  expectedFailures?: string;
  bail?: boolean;
  timeout: string;
  reporter: string;
  out?: string;
  trace?: string;
  verbose?: boolean;
}

export function register(program: Command): void {
  program
    .command('run')
    .description('Run the conformance vectors against a host (default: the built-in reference host)')
    .option('--harness <path>', 'in-process harness module (JS or TS) exporting createHarness or a default factory')
    .option('--harness-cmd <cmd>', 'a host speaking the stdio protocol (HARNESS.md), started as a subprocess')
    .option('--reference <configuration>', 'which built-in reference host configuration: buffered (default) or incremental (§12.1 exception)')
    .option('--surface <file>', 'YAML/JSON declared surface overriding what the harness describes')
    .option('--reading <name=value...>', 'a contested reading the built-in reference host runs under, e.g. errored_model_call=none (READINGS.md)')
    .option('--vectors <paths...>', 'vector files or directories (repeatable; default: the package vectors/)')
    .option('--grep <regex>', 'only vectors whose id or title matches')
    .option('--part <part...>', 'only vectors of this part (or a sub-part: "composition" matches "composition/…")')
    .option('--exclude-grep <regex>', 'leave out vectors whose id or title matches')
    .option('--exclude-part <part...>', 'leave out vectors of this part (or a sub-part)')
    .option('--capability <capability...>', 'only vectors that need one of these capabilities (declared or implied, as `list` shows)')
    .option('--shard <i/n>', 'run shard i of n: the selected vectors in id order, dealt round-robin (merge the shard reports with `merge`)')
    .option('--expected-failures <file>', 'YAML/JSON baseline of known failures (id: reason, or id: {check, reason}); a listed failure does not fail the run, a listed vector that passes does')
    .option('--bail', 'stop after the first (unexpected) failing vector')
    .option('--timeout <ms>', 'per-vector deadline in milliseconds', '30000')
    .option('--reporter <list>', `comma-separated: terminal,${FILE_REPORTERS.join(',')}`, 'terminal')
    .option('--out <dir>', 'write report.json (and the file reporters) here')
    .option('--trace <dir>', 'write <dir>/<id>.json with everything observed per vector')
    .option('--verbose', 'print host log lines and passing vectors')
    .addHelpText(
      'after',
      `
The host: the built-in reference host unless --harness (an in-process module) or --harness-cmd
(a subprocess speaking the stdio protocol) is given; not both. See HARNESS.md. --reference incremental
picks the reference host's incremental-mediation configuration (buffered_output: false, incremental_output).
A vector the declared surface does not cover is skipped with its reason; a run in which nothing
applicable ran is not a pass. A harness error, a timeout or a malformed host answer fails the vector.

The filters (--grep, --part, --exclude-grep, --exclude-part, --capability) all apply; --shard i/n then
runs every n-th of what they select, starting at the i-th, in id order, so n jobs together run each
selected vector once and \`merge\` makes their reports one. A report narrowed by any of them is not claimable.

--expected-failures FILE lists known failures: a vector id (full, or the short "AH-CTK-220") maps to a
reason, or to {check: "<failed check>", reason} when only that check may fail. A listed vector that
fails as listed is an expected failure: shown apart, it does not fail the run. An unlisted failure
fails it, and so does a listed vector that passes (a stale entry: drop it), so the baseline only
shrinks. A listed id the suite does not have is a usage error. \`claim\` refuses a report with expected
failures.

Examples:
  agent-hooks-ctk run --harness-cmd "python3 host.py" --out reports --reporter terminal,markdown,junit
  agent-hooks-ctk run --harness ./my-harness.ts --part composition --trace traces
  agent-hooks-ctk run --harness ./my-harness.ts --expected-failures ctk/expected-failures.yaml --shard 2/3 --out shard-2

${EXIT_CODES_HELP}`,
    )
    .action(async (flags: RunFlags) => {
      process.exitCode = await runCommand(flags);
      if (flags.harness !== undefined) exitDespiteLeftovers(flags.harness);
    });
}

export async function runCommand(flags: RunFlags): Promise<number> {
  const timeoutMs = parseTimeoutMs(flags.timeout);
  // An empty value must not read as "not given": `--harness-cmd ""` would otherwise run the reference host.
  requireNonEmpty(flags.harness, '--harness', 'the path of a harness module (HARNESS.md)');
  requireNonEmpty(flags.harnessCmd, '--harness-cmd', 'the command line that starts your stdio host (HARNESS.md)');
  const reporters = parseReporters(flags.reporter);
  if (reporters.files.length > 0 && flags.out === undefined) throw new CliError(EXIT.badInput, `--reporter ${reporters.files.join(',')} writes files: give --out DIR`);
  // Refuse an unusable --out/--trace before the run, not after it.
  if (flags.out !== undefined) prepareOutputDir(flags.out, '--out');
  if (flags.trace !== undefined) prepareOutputDir(flags.trace, '--trace');

  const shard = shardOrExit(flags.shard);
  const all = loadOrExit(flags.vectors);
  const baseline = baselineOrExit(flags.expectedFailures, all);
  const { vectors, selection } = selectSuiteOrExit(all, {
    ...(flags.grep !== undefined ? { grep: flags.grep } : {}),
    ...(flags.part ? { parts: flags.part } : {}),
    ...(flags.excludeGrep !== undefined ? { excludeGrep: flags.excludeGrep } : {}),
    ...(flags.excludePart ? { excludeParts: flags.excludePart } : {}),
    ...(flags.capability ? { capabilities: flags.capability } : {}),
    ...(shard ? { shard } : {}),
  });
  if (vectors.length === 0) {
    const parts = [...new Set(all.map((lv) => lv.part))].sort();
    const unknownParts = (flags.part ?? []).filter((p) => !parts.some((q) => q === p || q.startsWith(p + '/')));
    throw new CliError(
      EXIT.failed,
      `nothing ran: no vector matches the filters (${givenFilters(flags).join(', ')}) among ${all.length} loaded` +
        (unknownParts.length > 0 ? `; no part is named ${unknownParts.map((p) => JSON.stringify(p)).join(', ')} (parts: ${parts.join(', ')})` : ''),
    );
  }

  // The harness may share this process: contain what it raises outside its calls, and process.exit().
  const containment = containHarness();
  // stdout carries the report: what an in-process harness console.logs goes to stderr instead.
  const { log, info, debug } = console;
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
  try {
    return await runWithHarness(flags, { vectors, selection, baseline, reporters, timeoutMs, containment });
  } finally {
    Object.assign(console, { log, info, debug });
    containment.release();
  }
}

/** The filter flags given, by name: "--grep", "--part", … */
function givenFilters(flags: RunFlags): string[] {
  const given: Array<[string, unknown]> = [
    ['--grep', flags.grep],
    ['--part', flags.part],
    ['--exclude-grep', flags.excludeGrep],
    ['--exclude-part', flags.excludePart],
    ['--capability', flags.capability],
  ];
  return given.filter(([, v]) => v !== undefined).map(([name]) => name);
}

interface Prepared {
  vectors: LoadedVector[];
  selection: SuiteSelection | undefined;
  baseline: ResolvedBaseline | undefined;
  reporters: { terminal: boolean; files: string[] };
  timeoutMs: number;
  containment: Containment;
}

async function runWithHarness(flags: RunFlags, { vectors, selection, baseline, reporters, timeoutMs, containment }: Prepared): Promise<number> {
  const connected = await connectHarness(harnessChoice(flags, timeoutMs));
  const { harness, label } = connected;
  let report;
  try {
    const surface = await describeSurface(connected, flags.surface, timeoutMs);
    const early = containment.take();
    if (early.length > 0) throw new CliError(EXIT.failed, `the harness (${label}) raised an error outside any call before the first vector (${early.join('; ')}); nothing was run`);
    const progress = createProgressLine(process.stderr);
    let failed = 0;
    report = await runSuite(vectors, {
      harness,
      surface,
      harnessLabel: label,
      timeoutMs,
      bail: flags.bail === true,
      ...(flags.trace !== undefined ? { traceDir: flags.trace } : {}),
      sources: (flags.vectors && flags.vectors.length > 0 ? flags.vectors : defaultVectorPaths()).map(display),
      ...(selection ? { selection } : {}),
      ...(baseline ? { baseline } : {}),
      takeStrayErrors: () => containment.take(),
      onProgress: (e) => {
        if (e.kind === 'vector-start') progress.update(e.index, e.total, e.id, failed);
        if (e.kind === 'vector-done' && e.result.status === 'fail') failed++;
        if (e.kind === 'vector-done' && flags.verbose) {
          // In-process hosts' log lines and the mocks' notes (stdio hosts' stderr streams live through onLog).
          const lines = [...(flags.harnessCmd ? [] : e.trace.log), ...e.trace.notes.map((n) => `ctk note: ${n}`)];
          if (lines.length > 0) {
            progress.clear();
            for (const line of lines) process.stderr.write(`[${e.result.id}] ${line}\n`);
          }
        }
      },
    });
    progress.clear();
  } finally {
    const warning = await closeHarness(connected, timeoutMs);
    if (warning) process.stderr.write(`${warning}\n`);
  }

  if (reporters.terminal) process.stdout.write(renderTerminal(report, { color: colorEnabled(process.stdout), verbose: flags.verbose === true }));
  else {
    process.stderr.write(`${tallyLine(tally(report.results))}\n`);
  }
  if (flags.out !== undefined) {
    let written: string[];
    try {
      written = await writeReports(report, reporters.files, flags.out);
    } catch (error) {
      if (error instanceof ReportWriteError) throw new CliError(EXIT.badInput, `--out: ${error.message}; the run itself finished (summary above) but its reports were not written`);
      throw error;
    }
    if (reporters.terminal) process.stdout.write(`reports: ${written.map(display).join(', ')}\n`);
  }
  const late = containment.take();
  if (late.length > 0) {
    process.stderr.write(`the harness (${label}) raised an error outside any call after the last vector (${late.join('; ')}); the run is not a pass\n`);
    return EXIT.failed;
  }
  const verdict = verdictOf(report);
  if (verdict.state === 'none') {
    process.stderr.write(`nothing ran: every selected vector was skipped against the declared surface of ${report.host.name}; a run in which nothing applicable ran is not a pass\n`);
    return EXIT.failed;
  }
  return verdict.state === 'pass' ? EXIT.ok : EXIT.failed;
}
