// `selftest --mutants [--json] [--fast] [--vectors PATH…] [--only ID…]`: score a suite on broken reference hosts.
// Exit 0 when every mutant is killed, 1 when any survives (or nothing passes on the correct host), 2 on bad input.
import type { Command } from 'commander';
import { CliError, EXIT } from './exit.js';
import { loadOrExit, parseTimeoutMs, selectMutants } from './flags.js';
import { renderSelftest, runSelftest } from '../ctk/mutants/selftest.js';

interface SelftestFlags {
  mutants?: boolean;
  json?: boolean;
  fast?: boolean;
  vectors?: string[];
  only?: string[];
  timeout: string;
}

export function register(program: Command): void {
  program
    .command('selftest')
    .description('Mutation self-test: run a suite against broken variants of the reference host; any survivor exits 1')
    .option('--mutants', 'run the mutation self-test (the only self-test there is; required)')
    .option('--json', 'print {mutants:[{id,description,clause,killed_by}], survived:N}')
    .option('--fast', 'stop scoring each mutant at its first killing vector (killed_by then lists one id)')
    .option('--vectors <paths...>', 'the suite to score (default: the package vectors/; any corpus works)')
    .option('--only <ids...>', 'score only these mutant ids')
    .option('--timeout <ms>', 'per-vector deadline in milliseconds', '10000')
    .action(async (flags: SelftestFlags) => {
      if (!flags.mutants) throw new CliError(EXIT.badInput, 'selftest: pass --mutants (the mutation self-test is the only self-test)');
      const timeoutMs = parseTimeoutMs(flags.timeout);
      const mutants = selectMutants(flags.only);
      const vectors = loadOrExit(flags.vectors);
      const progress = !flags.json && process.stderr.isTTY;
      const result = await runSelftest({
        vectors,
        mutants,
        timeoutMs,
        stopAtFirstKill: flags.fast === true,
        onProgress: progress
          ? (e) => {
              if (e.kind === 'mutant') process.stderr.write(`\r${e.index + 1}/${e.total} ${e.result.id}`.padEnd(70));
            }
          : undefined,
      });
      if (progress) process.stderr.write('\r'.padEnd(71) + '\r');
      if (flags.json) {
        const out = { mutants: result.mutants, survived: result.survived };
        process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
      } else {
        process.stdout.write(`${renderSelftest(result)}\n`);
      }
      if (result.baseline.passed.length === 0) {
        process.stderr.write('selftest: no vector passes on the correct reference host, so no mutant can be killed\n');
        process.exitCode = EXIT.failed;
        return;
      }
      process.exitCode = result.survived > 0 ? EXIT.failed : EXIT.ok;
    });
}
