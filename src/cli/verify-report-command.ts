// `verify-report REPORT [--vectors DIR]` (default: the package vectors/): exit 0 only when every vector still hashes to what the report
// says and the suite digest matches; exit 1 naming each vector that changed, appeared or vanished;
// exit 2 for a missing or malformed report or vector path. With --compare, a second report (a fresh
// run) must also agree with it: the CI check that a committed report is current.
import type { Command } from 'commander';
import { CliError, EXIT } from './exit.js';
import { readReportFile, ReportFileError } from '../report/read.js';
import { fingerprintVectors, VectorDirError } from '../ctk/vector-source.js';
import { verifyReportAgainst, type VerifyOutcome } from '../report/verify.js';
import type { ConformanceReport } from '../results/model.js';
import { compareReports } from '../report/compare.js';
import { defaultVectorPaths } from '../ctk/load.js';

export function register(program: Command): void {
  program
    .command('verify-report')
    .description('Check that a vector directory still holds exactly the vectors a report ran (by digest)')
    .argument('<report>', 'a report.json written by `run`')
    .option('--vectors <dir...>', 'the vector directory (or files) the report was run against (default: the package vectors/)')
    .option('--compare <report>', 'also require this report (e.g. a fresh run) to agree on CTK, spec, surface, suite and every vector status')
    .option('--json', 'print the outcome as JSON')
    .action(async (reportFile: string, opts: { vectors?: string[]; compare?: string; json?: boolean }) => {
      const outcome = await verifyReportFile(reportFile, opts.vectors ?? defaultVectorPaths());
      if (opts.compare !== undefined) {
        const diffs = compareReports(outcome.report, await loadReportOrThrow(opts.compare));
        for (const d of diffs) outcome.lines.splice(outcome.lines.length - 1, 0, `differs from ${opts.compare}: ${d}`);
        if (diffs.length > 0) {
          outcome.ok = false;
          outcome.lines[outcome.lines.length - 1] = `FAIL: ${outcome.lines.at(-1)!.replace(/^(OK|FAIL): /, '')}; ${diffs.length} difference${diffs.length === 1 ? '' : 's'} from ${opts.compare}`;
        }
        Object.assign(outcome, { compare: { report: opts.compare, differences: diffs } });
      }
      if (opts.json) {
        const { lines: _lines, report: _report, ...data } = outcome;
        process.stdout.write(JSON.stringify(data, null, 2) + '\n');
      } else {
        process.stdout.write(outcome.lines.join('\n') + '\n');
      }
      process.exitCode = outcome.ok ? EXIT.ok : EXIT.failed;
    });
}

/** Loads the report and the vectors (CliError exit 2 on bad input) and compares them. */
export async function verifyReportFile(reportFile: string, vectorPaths: readonly string[]): Promise<VerifyOutcome & { report: ConformanceReport }> {
  const report = await loadReportOrThrow(reportFile);
  let source;
  try {
    source = fingerprintVectors(vectorPaths);
  } catch (error) {
    if (error instanceof VectorDirError) throw new CliError(EXIT.badInput, error.message);
    throw error;
  }
  return { ...verifyReportAgainst(report, source.vectors, source.unreadable), report };
}

/** readReportFile with its errors turned into a one-paragraph exit-2 CliError. */
export async function loadReportOrThrow(reportFile: string): Promise<ConformanceReport> {
  try {
    return await readReportFile(reportFile);
  } catch (error) {
    if (error instanceof ReportFileError) throw new CliError(EXIT.badInput, error.message);
    throw error;
  }
}
