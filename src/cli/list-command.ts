// `list [--json] [--requirements]`: the vectors with id, part, clause and the capabilities they need (and the
// requirements of the catalogue each one pins).
import type { Command } from 'commander';
import { CliError, EXIT } from './exit.js';
import { describeVector } from '../ctk/load.js';
import { CatalogueError, loadCatalogue, REQUIREMENTS_FILE } from '../ctk/coverage.js';
import { loadOrExit, selectOrExit } from './flags.js';

interface ListFlags {
  vectors?: string[];
  grep?: string;
  part?: string[];
  json?: boolean;
  requirements?: boolean;
  catalogue?: string;
}

export function register(program: Command): void {
  program
    .command('list')
    .description('List the vectors: id, part, spec clause, required capabilities (and, with --requirements, the requirements each pins)')
    .option('--vectors <paths...>', 'vector files or directories (default: the package vectors/)')
    .option('--grep <regex>', 'only vectors whose id or title matches')
    .option('--part <part...>', 'only vectors of this part (or a sub-part: "composition" matches "composition/…")')
    .option('--requirements', 'add the requirements of the catalogue that cite each vector')
    .option('--catalogue <file>', 'the requirement catalogue --requirements reads (default: the package vectors/requirements.yaml)')
    .option('--json', 'print JSON')
    .action((flags: ListFlags) => {
      const vectors = selectOrExit(loadOrExit(flags.vectors), flags.grep, flags.part).map(describeVector);
      const pins = flags.requirements || flags.catalogue !== undefined ? requirementsByVector(flags.catalogue ?? REQUIREMENTS_FILE) : undefined;
      const rows = vectors.map((v) => (pins ? { ...v, requirements: pins.get(v.id) ?? [] } : v));
      if (flags.json) process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
      else {
        const idW = Math.max(2, ...vectors.map((v) => v.id.length));
        const partW = Math.max(4, ...vectors.map((v) => v.part.length));
        const clauseW = Math.max(6, ...vectors.map((v) => v.spec_clause.length));
        const capW = Math.max(12, ...vectors.map((v) => (v.capabilities.join(',') || '-').length));
        const head = `${'id'.padEnd(idW)}  ${'part'.padEnd(partW)}  ${'clause'.padEnd(clauseW)}  ${pins ? `${'capabilities'.padEnd(capW)}  requirements` : 'capabilities'}`;
        process.stdout.write(`${head}\n`);
        for (const v of vectors) {
          const caps = v.capabilities.join(',') || '-';
          const reqs = pins ? `  ${(pins.get(v.id) ?? []).join(',') || '-'}` : '';
          process.stdout.write(`${v.id.padEnd(idW)}  ${v.part.padEnd(partW)}  ${v.spec_clause.padEnd(clauseW)}  ${pins ? caps.padEnd(capW) : caps}${reqs}\n`);
        }
        const unpinned = pins ? vectors.filter((v) => (pins.get(v.id) ?? []).length === 0).length : 0;
        process.stdout.write(`${vectors.length} vector${vectors.length === 1 ? '' : 's'}${pins ? `, ${unpinned} cited by no requirement` : ''}\n`);
      }
      process.exitCode = EXIT.ok;
    });
}

/** Vector id → the ids of the requirements citing it, in catalogue order. The pins are checked for shape only. */
function requirementsByVector(file: string): Map<string, string[]> {
  let requirements;
  try {
    requirements = loadCatalogue(file);
  } catch (error) {
    if (error instanceof CatalogueError) throw new CliError(EXIT.badInput, `invalid requirement catalogue ${file}: ${error.problems.slice(0, 5).join('; ')}`);
    throw error;
  }
  const out = new Map<string, string[]>();
  for (const r of requirements) for (const id of r.vectors) out.set(id, [...(out.get(id) ?? []), r.id]);
  return out;
}
