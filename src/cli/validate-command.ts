// `validate [PATH…]`: checks vector files only (schema + semantic rules + unique ids + each file named after its
// id). Exit 0 or 2.
import type { Command } from 'commander';
import { CliError, EXIT } from './exit.js';
import { display, fileNameProblems } from '../ctk/load.js';
import { loadOrExit } from './flags.js';

export function register(program: Command): void {
  program
    .command('validate')
    .description('Validate vector files against the vector grammar (default: the package vectors/); each file must be named after its id')
    .argument('[paths...]', 'vector files or directories')
    .action((paths: string[]) => {
      const vectors = loadOrExit(paths, Infinity);
      const misnamed = fileNameProblems(vectors);
      if (misnamed.length > 0) {
        const n = misnamed.length;
        throw new CliError(EXIT.badInput, `${n} vector file${n === 1 ? ' is' : 's are'} not named after ${n === 1 ? 'its id' : 'their ids'}:\n  ${misnamed.join('\n  ')}`);
      }
      const files = new Set(vectors.map((lv) => display(lv.file)));
      process.stdout.write(`ok: ${vectors.length} vector${vectors.length === 1 ? '' : 's'} in ${files.size} file${files.size === 1 ? '' : 's'} are valid\n`);
      process.exitCode = EXIT.ok;
    });
}
