// `selftest --mutants [--json] [--fast] [--vectors PATH…] [--only ID…] [--marginal [--require-marginal]]`: score a
// suite on broken reference hosts; `selftest --list [--json] [--only ID…]`: the broken hosts, each with its requirement.
// Exit 0 when every mutant is killed, 1 when any survives (or nothing passes on the correct host), 2 on bad input.
// With --marginal: exit 0 (survivors are expected of a few vectors), 1 only under --require-marginal when the given
// vectors kill nothing the rest of the combined corpus does not.
import type { Command } from 'commander';
import { CliError, EXIT } from './exit.js';
import { loadOrExit, parseTimeoutMs } from './flags.js';
import { selectMutants } from './mutant-flags.js';
import { renderMarginal, renderSelftest, runMarginal, runSelftest, type MutantResult } from '../ctk/mutants/selftest.js';
import { requirementOfMutant, requirementsOfMutant } from '../ctk/mutants/requirements.js';
import { defaultVectorPaths } from '../ctk/load.js';
import { configurationKey, type Mutant } from '../ctk/mutants/mutants.js';

interface SelftestFlags {
  mutants?: boolean;
  list?: boolean;
  json?: boolean;
  fast?: boolean;
  vectors?: string[];
  only?: string[];
  marginal?: boolean;
  requireMarginal?: boolean;
  timeout: string;
}

export function register(program: Command): void {
  program
    .command('selftest')
    .description('Mutation self-test: run a suite against broken variants of the reference host; any survivor exits 1 (--marginal: what the given vectors add to the package suite; --list: the mutants)')
    .option('--mutants', 'run the mutation self-test (the only self-test there is; required unless --list)')
    .option('--list', 'list the mutants, each with the requirement it breaks and its configuration; runs nothing')
    .option('--json', 'print {mutants:[{id,description,clause,requirement,killed_by}], survived:N} (--list: the mutants; --marginal: the marginal report)')
    .option('--fast', 'stop scoring each mutant at its first killing vector (killed_by then lists one id)')
    .option('--vectors <paths...>', 'the suite to score (default: the package vectors/; any corpus works)')
    .option('--only <ids...>', 'score (or list) only these mutant ids')
    .option('--marginal', 'with --vectors: the mutants the given vectors kill that the package suite does not, and those only they kill in the combined corpus (exit 0)')
    .option('--require-marginal', 'with --marginal: exit 1 unless the given vectors alone kill at least one mutant in the combined corpus')
    .option('--timeout <ms>', 'per-vector deadline in milliseconds', '10000')
    .action(async (flags: SelftestFlags) => {
      const mutants = selectMutants(flags.only);
      if (flags.list) return list(mutants, flags);
      if (!flags.mutants) throw new CliError(EXIT.badInput, 'selftest: pass --mutants to run the mutation self-test (or --list to list the mutants)');
      if (flags.requireMarginal && !flags.marginal) throw new CliError(EXIT.badInput, '--require-marginal: goes with --marginal');
      const timeoutMs = parseTimeoutMs(flags.timeout);
      if (flags.marginal) return marginal(mutants, flags, timeoutMs);
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
        const out = { mutants: result.mutants.map(withRequirement), survived: result.survived };
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

const withRequirement = (m: MutantResult) => ({ ...m, requirement: requirementOfMutant(m.id) ?? null });

/** `--list`: one line per mutant (id, clause, requirement, configuration, what the broken host does). */
function list(mutants: readonly Mutant[], flags: SelftestFlags): void {
  const rows = mutants.map((m) => {
    const [requirement = null, ...also] = requirementsOfMutant(m.id);
    return { id: m.id, clause: m.clause, requirement, also_breaks: also, configuration: configurationKey(m), description: m.description };
  });
  if (flags.json) process.stdout.write(`${JSON.stringify({ mutants: rows }, null, 2)}\n`);
  else {
    const idW = Math.max(2, ...rows.map((r) => r.id.length));
    const reqW = Math.max(11, ...rows.map((r) => (r.requirement ?? '-').length));
    process.stdout.write(`${'id'.padEnd(idW)}  clause  ${'requirement'.padEnd(reqW)}  what the broken host does\n`);
    for (const r of rows) {
      const config = r.configuration === 'buffered' ? '' : ` [${r.configuration} configuration]`;
      const also = r.also_breaks.length > 0 ? ` (also breaks ${r.also_breaks.join(', ')})` : '';
      process.stdout.write(`${r.id.padEnd(idW)}  §${r.clause.padEnd(6)} ${(r.requirement ?? '-').padEnd(reqW)}  ${r.description}${config}${also}\n`);
    }
    const incremental = rows.filter((r) => r.configuration.startsWith('incremental')).length;
    const session = rows.filter((r) => r.configuration === 'session').length;
    process.stdout.write(`${rows.length} mutant${rows.length === 1 ? '' : 's'} (${incremental} of the incremental configuration${session > 0 ? `, ${session} of the CTK session host` : ''}); coverage --requirements shows them per requirement\n`);
  }
  process.exitCode = EXIT.ok;
}

/** `--marginal`: the given vectors (--vectors) against the package suite, on the same mutants. */
async function marginal(mutants: readonly Mutant[], flags: SelftestFlags, timeoutMs: number): Promise<void> {
  if (!flags.vectors || flags.vectors.length === 0) throw new CliError(EXIT.badInput, '--marginal: give the vectors whose marginal value you want with --vectors PATH…');
  const given = loadOrExit(flags.vectors);
  const suite = loadOrExit(defaultVectorPaths());
  const result = await runMarginal({ given, suite, mutants, timeoutMs });
  if (flags.json) {
    const out = {
      given: { mutants: result.given.mutants.map(withRequirement), survived: result.given.survived, baseline: result.given.baseline },
      in_suite: result.in_suite,
      beyond_suite: result.beyond_suite,
      only_given: result.only_given,
      also_killed_by: result.also_killed_by,
    };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } else {
    process.stdout.write(`${renderMarginal(result, (m) => `§${m.clause} (${requirementOfMutant(m.id) ?? 'no requirement'}): ${m.description}`)}\n`);
  }
  if (result.given.baseline.passed.length === 0) {
    process.stderr.write('selftest: none of the given vectors passes on the correct reference host, so they can kill no mutant\n');
    process.exitCode = EXIT.failed;
    return;
  }
  process.exitCode = flags.requireMarginal && result.only_given.length === 0 ? EXIT.failed : EXIT.ok;
}
