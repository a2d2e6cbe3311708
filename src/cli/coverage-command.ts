// `coverage [--json] [--catalogue FILE] [--vectors PATH…]`: per-clause coverage of the requirement catalogue.
// Exit 0 when every requirement is pinned, 1 when any is pinned by nothing, 2 on a bad catalogue or suite.
import type { Command } from 'commander';
import { CliError, EXIT } from './exit.js';
import { loadOrExit } from './flags.js';
import { CatalogueError, loadCatalogue, renderCoverage, REQUIREMENTS_FILE, summarize } from '../ctk/coverage.js';
import { PACKAGE_ROOT } from '../version.js';

interface CoverageFlags {
  json?: boolean;
  catalogue?: string;
  vectors?: string[];
}

export function register(program: Command): void {
  program
    .command('coverage')
    .description('Per-clause coverage of the spec requirement catalogue by vectors and unit tests (exit 1 if any is unpinned)')
    .option('--json', 'print {requirements:[{id,clause,text,vectors,tests}], uncovered:N}')
    .option('--catalogue <file>', 'requirement catalogue (default: the package vectors/requirements.yaml)')
    .option('--vectors <paths...>', 'the suite the catalogue cites (default: the package vectors/)')
    .action((flags: CoverageFlags) => {
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
        const out = {
          requirements: summary.requirements.map((r) => ({
            id: r.id,
            clause: r.clause,
            text: r.text,
            vectors: r.vectors,
            tests: r.tests,
            ...(r.declaration !== undefined ? { declaration: r.declaration } : {}),
          })),
          uncovered: summary.uncovered,
        };
        process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
      } else {
        process.stdout.write(`${renderCoverage(summary)}\n`);
      }
      process.exitCode = summary.uncovered > 0 ? EXIT.failed : EXIT.ok;
    });
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
