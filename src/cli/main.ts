// The CLI is a thin layer: each command module parses its flags and calls into src/. Only the command asked for
// is imported (a cold start pays for nothing else); the root --help and --version come from the table below.
import { Command, CommanderError, Help } from 'commander';
import { cliErrorOf, EXIT, EXIT_CODES_HELP } from './exit.js';
import { CTK_NAME, CTK_VERSION } from '../version.js';

/** One CLI command: what the root --help lists for it, and its module, imported only when the command runs. */
export interface CommandEntry {
  name: string;
  /** What the root --help prints after the name: "[options]" when it has options, then its arguments. */
  usage: string;
  /** Its description, word for word as the module registers it (src/cli/main.test.ts holds the two together). */
  summary: string;
  load: () => Promise<{ register(program: Command): void }>;
}

/** Every command, in --help order. Adding a command is one entry here. */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'run', usage: '[options]', summary: 'Run the conformance vectors against a host (default: the built-in reference host)', load: () => import('./run-command.js') },
  { name: 'validate', usage: '[paths...]', summary: 'Validate vector files against the vector grammar (default: the package vectors/); each file must be named after its id', load: () => import('./validate-command.js') },
  { name: 'list', usage: '[options]', summary: 'List the vectors: id, part, spec clause, required capabilities (and, with --requirements, the requirements each pins)', load: () => import('./list-command.js') },
  {
    name: 'identity',
    usage: '[options] [file]',
    summary:
      'Print the jcs-sha256 context identity (§10.2) of an AgentContext read from FILE or stdin ("-" or omitted). ' +
      'With --canonical, print exactly the RFC 8785 bytes that are hashed, with no trailing newline. ' +
      'With --golden FILE, check the provider against a golden identity file ({"fixtures": [{id, ctx, expect}]}): one line per ' +
      'fixture; exit 1 on any mismatch, 2 on a file that is not a golden file. A fixture that contradicts RFC 8785 by itself ' +
      '(e.g. a canonical number that does not parse back to the input double) is reported as defective and counted neither way.',
    load: () => import('./identity-command.js'),
  },
  { name: 'reference-host', usage: '[options]', summary: 'Serve the built-in reference host over the stdio harness protocol (JSON-RPC on stdin/stdout, log on stderr)', load: () => import('./reference-host-command.js') },
  { name: 'init', usage: '[options] [dir]', summary: 'Scaffold a conformance harness for a new host: the stdio protocol loop written, the four methods stubbed, a README of next steps', load: () => import('./init-command.js') },
  { name: 'coverage', usage: '[options]', summary: 'Coverage of the spec requirement catalogue by vectors, unit tests and selftest mutants, per clause (exit 1 if any requirement is unpinned)', load: () => import('./coverage-command.js') },
  { name: 'selftest', usage: '[options]', summary: 'Mutation self-test: run a suite against broken variants of the reference host; any survivor exits 1 (--marginal: what the given vectors add to the package suite; --list: the mutants)', load: () => import('./selftest-command.js') },
  { name: 'verify-report', usage: '[options] <report>', summary: 'Check that a vector directory still holds exactly the vectors a report ran (by digest)', load: () => import('./verify-report-command.js') },
  { name: 'claim', usage: '[options] <report>', summary: 'Turn a passing report into a §13.3 claim: a CLAIMS.md table row (stdout) and a per-part CLAIM.md', load: () => import('./claim-command.js') },
  { name: 'fuzz', usage: '[options]', summary: 'Differential fuzzing: generate valid vectors over the declared surface, compare the host with the reference host, shrink each divergence to a vector', load: () => import('./fuzz-command.js') },
  { name: 'diff', usage: '[options] <a> <b>', summary: 'Compare two reports: regressions (pass → fail), fixes, added/removed vectors and changed skips, by part', load: () => import('./diff-command.js') },
  { name: 'merge', usage: '[options] <reports...>', summary: 'Combine the shard reports of one run (run --shard i/n) into its whole report', load: () => import('./merge-command.js') },
];

/**
 * The program: the commands named in `loaded` registered by their modules, every other one a placeholder that
 * --help lists (name, usage, summary) and that is never run (main() loads the command the arguments name).
 */
export function buildProgram(loaded: ReadonlyMap<string, (program: Command) => void> = new Map()): Command {
  const program = new Command();
  const usage = new Map(COMMANDS.map((c) => [c.name, `${c.name} ${c.usage}`]));
  program
    .name(CTK_NAME)
    .description('Conformance test kit for the Agent Hooks specification (AGENT-HOOKS-0.1)')
    .version(CTK_VERSION)
    .exitOverride()
    // Usage errors read like every other error: "agent-hooks-ctk: <what>", then where to look.
    .configureOutput({ outputError: (text, write) => write(`${CTK_NAME}: ${text.replace(/^error: /, '')}`) })
    // A placeholder has no options or arguments of its own: the listing takes its usage from the table.
    .configureHelp({ subcommandTerm: (cmd) => usage.get(cmd.name()) ?? new Help().subcommandTerm(cmd) })
    .showHelpAfterError(`(${CTK_NAME} <command> --help shows the usage)`)
    .addHelpText('after', `\n${EXIT_CODES_HELP}\nColour is on for a terminal only; NO_COLOR=1 turns it off, FORCE_COLOR=1 on.\nAGENT_HOOKS_CTK_DEBUG=1 prints the stack of an internal error.`);
  for (const entry of COMMANDS) {
    const register = loaded.get(entry.name);
    if (register) register(program);
    else
      program
        .command(entry.name)
        .description(entry.summary)
        .action(() => {
          throw new Error(`the ${entry.name} command was run without its module loaded`);
        });
  }
  return program;
}

/** The command the arguments run (for `help CMD`, the one whose help is asked for), if any is in the table. */
export function commandOf(args: readonly string[]): CommandEntry | undefined {
  // The root takes no option with a value, so its first operand names the command.
  const operands = args.filter((a) => !a.startsWith('-'));
  const name = operands[0] === 'help' ? operands[1] : operands[0];
  return COMMANDS.find((c) => c.name === name);
}

/** The program for these arguments (process.argv): only the command they run is imported. */
export async function programFor(argv: readonly string[]): Promise<Command> {
  const entry = commandOf(argv.slice(2));
  return buildProgram(entry ? new Map([[entry.name, (await entry.load()).register]]) : new Map());
}

/** Runs the CLI and returns the exit code; never throws, never prints a stack trace. */
export async function main(argv: string[], program?: Command): Promise<number> {
  // Safety net: if the CTK ever runs out of work with main() still pending (a promise nothing will
  // settle), Node would exit 13 without a word. Say so, and exit 3: an internal error, never a pass.
  // 'beforeExit' fires only when the event loop is empty, never for an explicit process.exit().
  const onIdle = () => {
    process.stderr.write(
      `${CTK_NAME}: internal error (the CTK ran out of work while a command was still waiting to finish). ` +
        'This is a bug in the CTK, not a verdict on your host; nothing was passed.\n',
    );
    process.exit(EXIT.internal);
  };
  process.on('beforeExit', onIdle);
  try {
    return await runMain(program, argv);
  } finally {
    process.off('beforeExit', onIdle);
  }
}

async function runMain(given: Command | undefined, argv: string[]): Promise<number> {
  try {
    const program = given ?? (await programFor(argv));
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (error) {
    const known = cliErrorOf(error);
    if (known) {
      process.stderr.write(`${CTK_NAME}: ${known.message}\n`);
      return known.exitCode;
    }
    if (error instanceof CommanderError) {
      // --help and --version exit 0; every other parse problem is a usage error.
      return error.exitCode === 0 ? EXIT.ok : EXIT.badInput;
    }
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    process.stderr.write(
      `${CTK_NAME}: internal error (${message}). This is a bug in the CTK, not a verdict on your host; nothing was passed. ` +
        `Set AGENT_HOOKS_CTK_DEBUG=1 to see the stack.\n`,
    );
    if (process.env.AGENT_HOOKS_CTK_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    return EXIT.internal;
  }
}
