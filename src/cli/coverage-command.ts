// `coverage [--json] [--requirements | --thin N] [--catalogue FILE] [--vectors PATH…]`: coverage of the requirement
// catalogue, per clause (default), per requirement, or only the thin requirements.
// Exit 0 when every requirement is pinned, 1 when any is pinned by nothing, 2 on a bad catalogue, suite or flag.
import type { Command } from 'commander';
import { CliError, EXIT } from './exit.js';
import { loadOrExit } from './flags.js';
import { CatalogueError, loadCatalogue, renderCoverage, renderRequirements, renderThin, REQUIREMENTS_FILE, summarize, thinness } from '../ctk/coverage.js';
import { PACKAGE_ROOT } from '../version.js';

interface CoverageFlags {
  json?: boolean;
  requirements?: boolean;
  thin?: string;
  catalogue?: string;
  vectors?: string[];
}

export function register(program: Command): void {
  program
    .command('coverage')
    .description('Coverage of the spec requirement catalogue by vectors, unit tests and selftest mutants, per clause (exit 1 if any requirement is unpinned)')
    .option('--json', 'print {requirements:[{id,clause,text,vectors,tests,mutants}], uncovered:N} (with --thin: only the thin ones, each with its reason)')
    .option('--requirements', 'one line per requirement: its vectors, unit tests and mutants')
    .option('--thin <n>', 'only the requirements pinned by fewer than n vectors, or broken by no mutant')
    .option('--catalogue <file>', 'requirement catalogue (default: the package vectors/requirements.yaml)')
    .option('--vectors <paths...>', 'the suite the catalogue cites (default: the package vectors/)')
    .action((flags: CoverageFlags) => {
      if (flags.requirements && flags.thin !== undefined) throw new CliError(EXIT.badInput, 'coverage: give --requirements or --thin, not both (--thin lists requirements the same way, only the thin ones)');
      const minVectors = flags.thin === undefined ? undefined : parseThin(flags.thin);
      const vectors = loadOrExit(flags.vectors);
      const file = flags.catalogue ?? REQUIREMENTS_FILE;
      let requirements;
      try {
        requirements = loadCatalogue(file, { vectorIds: new Set(vectors.map((lv) => lv.vector.id)), root: PACKAGE_ROOT });
      } catch (error) {
        if (error instanceof CatalogueError) throw new CliError(EXIT.badInput, catalogueMessage(error, flags.vectors !== undefined));
        throw error;
      }
      const summary = summarize(requirements);
      if (flags.json) {
        const listed = summary.requirements.flatMap((r) => {
          const thin = minVectors === undefined ? undefined : thinness(r, minVectors);
          if (minVectors !== undefined && thin === undefined) return [];
          return [{
            id: r.id,
            clause: r.clause,
            text: r.text,
            vectors: r.vectors,
            tests: r.tests,
            mutants: r.mutants,
            ...(r.declaration !== undefined ? { declaration: r.declaration } : {}),
            ...(thin !== undefined ? { thin } : {}),
          }];
        });
        const out = { requirements: listed, uncovered: summary.uncovered };
        process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
      } else if (minVectors !== undefined) {
        process.stdout.write(`${renderThin(summary, minVectors)}\n`);
      } else if (flags.requirements) {
        process.stdout.write(`${renderRequirements(summary)}\n`);
      } else {
        process.stdout.write(`${renderCoverage(summary)}\n`);
      }
      process.exitCode = summary.uncovered > 0 ? EXIT.failed : EXIT.ok;
    });
}

/** `--thin N`: a whole number of vectors, at least 1. */
function parseThin(value: string): number {
  const n = /^[0-9]+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new CliError(EXIT.badInput, `--thin: expected a whole number of vectors, at least 1 (e.g. 2), got ${JSON.stringify(value)}`);
  return n;
}

const SHOWN_PROBLEMS = 20;

/** One paragraph, not hundreds of lines: the first problems, a count of the rest, and the likely cause. */
export function catalogueMessage(error: CatalogueError, customSuite: boolean): string {
  const { file, problems } = error;
  const shown = problems.slice(0, SHOWN_PROBLEMS);
  const more = problems.length - shown.length;
  const unknownIds = problems.filter((p) => /unknown vector id/.test(p)).length;
  const hint =
    unknownIds > 0 && customSuite
      ? `\n${unknownIds} of them cite vectors missing from the --vectors suite: give --vectors the whole suite the catalogue was written for (or --catalogue one for this suite).`
      : '';
  return (
    `invalid requirement catalogue ${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n  ${shown.join('\n  ')}` +
    (more > 0 ? `\n  … and ${more} more` : '') +
    hint
  );
}
