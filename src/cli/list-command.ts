// `list [--json]`: the vectors with id, part, clause and the capabilities they need.
import type { Command } from 'commander';
import { EXIT } from './exit.js';
import { describeVector } from '../ctk/load.js';
import { loadOrExit, selectOrExit } from './flags.js';

export function register(program: Command): void {
  program
    .command('list')
    .description('List the vectors: id, part, spec clause, required capabilities')
    .option('--vectors <paths...>', 'vector files or directories (default: the package vectors/)')
    .option('--grep <regex>', 'only vectors whose id or title matches')
    .option('--part <part...>', 'only vectors of this part (or a sub-part: "composition" matches "composition/…")')
    .option('--json', 'print JSON')
    .action((flags: { vectors?: string[]; grep?: string; part?: string[]; json?: boolean }) => {
      const vectors = selectOrExit(loadOrExit(flags.vectors), flags.grep, flags.part).map(describeVector);
      if (flags.json) process.stdout.write(JSON.stringify(vectors, null, 2) + '\n');
      else {
        const idW = Math.max(2, ...vectors.map((v) => v.id.length));
        const partW = Math.max(4, ...vectors.map((v) => v.part.length));
        const clauseW = Math.max(6, ...vectors.map((v) => v.spec_clause.length));
        process.stdout.write(`${'id'.padEnd(idW)}  ${'part'.padEnd(partW)}  ${'clause'.padEnd(clauseW)}  capabilities\n`);
        for (const v of vectors) process.stdout.write(`${v.id.padEnd(idW)}  ${v.part.padEnd(partW)}  ${v.spec_clause.padEnd(clauseW)}  ${v.capabilities.join(',') || '-'}\n`);
        process.stdout.write(`${vectors.length} vector${vectors.length === 1 ? '' : 's'}\n`);
      }
      process.exitCode = EXIT.ok;
    });
}
