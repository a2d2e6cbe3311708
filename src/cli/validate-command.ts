// `validate [PATH…]`: checks vector files only (schema + semantic rules + unique ids). Exit 0 or 2.
import type { Command } from 'commander';
import { EXIT } from './exit.js';
import { display } from '../ctk/load.js';
import { loadOrExit } from './flags.js';

export function register(program: Command): void {
  program
    .command('validate')
    .description('Validate vector files against the vector grammar (default: the package vectors/)')
    .argument('[paths...]', 'vector files or directories')
    .action((paths: string[]) => {
      const vectors = loadOrExit(paths, Infinity);
      const files = new Set(vectors.map((lv) => display(lv.file)));
      process.stdout.write(`ok: ${vectors.length} vector${vectors.length === 1 ? '' : 's'} in ${files.size} file${files.size === 1 ? '' : 's'} are valid\n`);
      process.exitCode = EXIT.ok;
    });
}
