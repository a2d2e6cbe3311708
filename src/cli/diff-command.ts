// `diff A.json B.json`: regressions, fixes, added and removed vectors and changed skips from run A to run B, grouped by
// part (src/report/diff.ts). Exit 1 on any regression, else 0; exit 2 on a bad report, or on reports of different
// suites unless --by-id.
import type { Command } from 'commander';
import { CliError, EXIT, EXIT_CODES_HELP } from './exit.js';
import { loadReportOrThrow } from './verify-report-command.js';
import { diffReports, renderDiffMarkdown, renderDiffText, SuiteMismatchError } from '../report/diff.js';

interface DiffFlags {
  json?: boolean;
  markdown?: boolean;
  byId?: boolean;
}

export function register(program: Command): void {
  program
    .command('diff')
    .description('Compare two reports: regressions (pass → fail), fixes, added/removed vectors and changed skips, by part')
    .argument('<a>', 'the earlier report.json (e.g. of the main branch)')
    .argument('<b>', 'the later report.json (e.g. of the pull request)')
    .option('--json', 'print the diff as JSON')
    .option('--markdown', 'print the diff as Markdown (a pull-request comment or a job summary)')
    .option('--by-id', 'compare reports of different suites vector by vector (vectors whose content changed are listed apart)')
    .addHelpText(
      'after',
      `
A regression is a vector that passed in A and fails in B, an expected failure of B's baseline
included. A vector skipped in one run only, or skipped in both for different reasons, is a skip
change: it is listed, never counted as a pass. Reports of different suites (suite digests) are
refused unless --by-id.

Exit codes: 0 no regression; 1 a regression; 2 a missing or malformed report, or different suites without --by-id.
${EXIT_CODES_HELP}`,
    )
    .action(async (fileA: string, fileB: string, flags: DiffFlags) => {
      if (flags.json && flags.markdown) throw new CliError(EXIT.badInput, 'give --json or --markdown, not both');
      const [a, b] = [await loadReportOrThrow(fileA), await loadReportOrThrow(fileB)];
      let diff;
      try {
        diff = diffReports(a, b, { fileA, fileB, byId: flags.byId === true });
      } catch (error) {
        if (error instanceof SuiteMismatchError) throw new CliError(EXIT.badInput, error.message);
        throw error;
      }
      process.stdout.write(flags.json ? JSON.stringify(diff, null, 2) + '\n' : flags.markdown ? renderDiffMarkdown(diff) : renderDiffText(diff));
      process.exitCode = diff.regressions.length > 0 ? EXIT.failed : EXIT.ok;
    });
}
