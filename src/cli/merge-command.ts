// `merge REPORT... --out DIR`: the shard reports of one `run --shard i/n` combined into the report of the whole run
// (src/report/merge.ts), written with any reporter. Exit like `run` on the merged report: 0 pass, 1 a failure (or
// nothing applicable ran); 2 a bad report, or shards that are not of one run.
import type { Command } from 'commander';
import { CliError, EXIT, EXIT_CODES_HELP } from './exit.js';
import { parseReporters, prepareOutputDir } from './flags.js';
import { loadReportOrThrow } from './verify-report-command.js';
import { display } from '../ctk/load.js';
import { MergeError, mergeReports } from '../report/merge.js';
import { colorEnabled, renderTerminal } from '../report/terminal.js';
import { FILE_REPORTERS, ReportWriteError, writeReports } from '../report/write.js';
import { verdictOf } from '../results/tally.js';

interface MergeFlags {
  out: string;
  reporter: string;
}

export function register(program: Command): void {
  program
    .command('merge')
    .description('Combine the shard reports of one run (run --shard i/n) into its whole report')
    .argument('<reports...>', 'the report.json of every shard')
    .requiredOption('--out <dir>', 'write the merged report.json (and the file reporters) here')
    .option('--reporter <list>', `comma-separated: terminal,${FILE_REPORTERS.join(',')}`, 'terminal')
    .addHelpText(
      'after',
      `
Every shard must come from the same suite, filters, CTK, spec, host, declared surface and
expected-failures baseline, each shard once; together they must be the vectors they were cut from.
The merged report is the one the unsharded run would write (results in id order, the same summary,
parts and suite digest), so a merge of a whole suite's shards can be claimed.

Exit codes: as for run, on the merged report (0 pass, 1 a failure or nothing applicable ran); 2 a
missing or malformed report, or shards that are not of one run.
${EXIT_CODES_HELP}`,
    )
    .action(async (files: string[], flags: MergeFlags) => {
      const reporters = parseReporters(flags.reporter);
      prepareOutputDir(flags.out, '--out');
      const shards = [];
      for (const file of files) shards.push({ file, report: await loadReportOrThrow(file) });
      let merged;
      try {
        merged = mergeReports(shards);
      } catch (error) {
        if (error instanceof MergeError) throw new CliError(EXIT.badInput, `merge: ${error.message}`);
        throw error;
      }
      let written: string[];
      try {
        written = await writeReports(merged, reporters.files, flags.out);
      } catch (error) {
        if (error instanceof ReportWriteError) throw new CliError(EXIT.badInput, `--out: ${error.message}`);
        throw error;
      }
      if (reporters.terminal) process.stdout.write(renderTerminal(merged, { color: colorEnabled(process.stdout) }) + `reports: ${written.map(display).join(', ')}\n`);
      else process.stderr.write(`merged ${files.length} shards: ${written.map(display).join(', ')}\n`);
      process.exitCode = verdictOf(merged).state === 'pass' ? EXIT.ok : EXIT.failed;
    });
}
