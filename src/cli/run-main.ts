// The run command with the CLI around it, imported statically: the entry of the run bundle (dist/cli/run/, built by
// scripts/bundle-cli.mjs), which bin/agent-hooks-ctk.js starts for `run` and `help run`. The run command's module tree
// then loads as a few chunks of its own instead of the chunks it shares with each other command in dist/cli/.
import { buildProgram, commandOf, main } from './main.js';
import { register } from './run-command.js';

/** main() for arguments that run the run command (or ask for its help); anything else is a launcher bug. */
export async function runMain(argv: string[]): Promise<number> {
  const name = commandOf(argv.slice(2))?.name;
  if (name !== 'run') throw new Error(`the run bundle was started for ${name === undefined ? 'no command' : `the ${name} command`} (bin/agent-hooks-ctk.js routes only run there)`);
  return main(argv, buildProgram(new Map([['run', register]])));
}
