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
import { harnessChoice, loadOrExit, parseTimeoutMs, prepareOutputDir, requireNonEmpty, selectOrExit } from './flags.js';

interface RunFlags {
  harness?: string;
  harnessCmd?: string;
  reference?: string;
  surface?: string;
  vectors?: string[];
  grep?: string;
  part?: string[];
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
    .option('--vectors <paths...>', 'vector files or directories (repeatable; default: the package vectors/)')
    .option('--grep <regex>', 'only vectors whose id or title matches')
    .option('--part <part...>', 'only vectors of this part (or a sub-part: "composition" matches "composition/…")')
    .option('--bail', 'stop after the first failing vector')
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

Examples:
  agent-hooks-ctk run --harness-cmd "python3 host.py" --out reports --reporter terminal,markdown,junit
  agent-hooks-ctk run --harness ./my-harness.ts --part composition --trace traces

${EXIT_CODES_HELP}`,
    )
    .action(async (flags: RunFlags) => {
      process.exitCode = await runCommand(flags);
      if (flags.harness !== undefined) exitDespiteLeftovers(flags.harness);
    });
}

function parseReporters(list: string): { terminal: boolean; files: string[] } {
  const names = list.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new CliError(EXIT.badInput, `--reporter: no reporter named; give a comma-separated list of terminal, ${FILE_REPORTERS.join(', ')}`);
  const known = new Set<string>(['terminal', ...FILE_REPORTERS]);
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0) throw new CliError(EXIT.badInput, `--reporter: unknown reporter ${unknown.join(', ')} (known: ${[...known].join(', ')})`);
  return { terminal: names.includes('terminal'), files: names.filter((n) => n !== 'terminal') };
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

  const all = loadOrExit(flags.vectors);
  const vectors = selectOrExit(all, flags.grep, flags.part);
  if (vectors.length === 0) {
    const parts = [...new Set(all.map((lv) => lv.part))].sort();
    const unknownParts = (flags.part ?? []).filter((p) => !parts.some((q) => q === p || q.startsWith(p + '/')));
    throw new CliError(
      EXIT.failed,
      `nothing ran: no vector matches the filters (--grep/--part) among ${all.length} loaded` +
        (unknownParts.length > 0 ? `; no part is named ${unknownParts.map((p) => JSON.stringify(p)).join(', ')} (parts: ${parts.join(', ')})` : ''),
    );
  }

  // The harness may share this process: contain what it raises outside its calls, and process.exit().
  const containment = containHarness();
  // stdout carries the report: what an in-process harness console.logs goes to stderr instead.
  const { log, info, debug } = console;
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
  try {
    return await runWithHarness(flags, { all, vectors, reporters, timeoutMs, containment });
  } finally {
    Object.assign(console, { log, info, debug });
    containment.release();
  }
}

interface Prepared {
  all: LoadedVector[];
  vectors: LoadedVector[];
  reporters: { terminal: boolean; files: string[] };
  timeoutMs: number;
  containment: Containment;
}

async function runWithHarness(flags: RunFlags, { all, vectors, reporters, timeoutMs, containment }: Prepared): Promise<number> {
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
      ...(vectors.length !== all.length || flags.grep !== undefined || (flags.part && flags.part.length > 0)
        ? { selection: { loaded: all.length, ...(flags.grep !== undefined ? { grep: flags.grep } : {}), ...(flags.part && flags.part.length > 0 ? { parts: flags.part } : {}) } }
        : {}),
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
    const s = report.summary;
    process.stderr.write(`${s.total} vectors: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped\n`);
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
