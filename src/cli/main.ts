// The CLI is a thin layer: each command module parses its flags and calls into src/.
import { Command, CommanderError } from 'commander';
import { cliErrorOf, EXIT, EXIT_CODES_HELP } from './exit.js';
import { CTK_NAME, CTK_VERSION } from '../version.js';
import { register as registerRun } from './run-command.js';
import { register as registerValidate } from './validate-command.js';
import { register as registerList } from './list-command.js';
import { register as registerIdentity } from './identity-command.js';
import { register as registerReferenceHost } from './reference-host-command.js';
import { register as registerInit } from './init-command.js';
import { register as registerCoverage } from './coverage-command.js';
import { register as registerSelftest } from './selftest-command.js';
import { register as registerVerifyReport } from './verify-report-command.js';
import { register as registerClaim } from './claim-command.js';
import { register as registerFuzz } from './fuzz-command.js';
import { register as registerDiff } from './diff-command.js';
import { register as registerMerge } from './merge-command.js';

export function buildProgram(): Command {
  const program = new Command();
  program
    .name(CTK_NAME)
    .description('Conformance test kit for the Agent Hooks specification (AGENT-HOOKS-0.1)')
    .version(CTK_VERSION)
    .exitOverride()
    // Usage errors read like every other error: "agent-hooks-ctk: <what>", then where to look.
    .configureOutput({ outputError: (text, write) => write(`${CTK_NAME}: ${text.replace(/^error: /, '')}`) })
    .showHelpAfterError(`(${CTK_NAME} <command> --help shows the usage)`)
    .addHelpText('after', `\n${EXIT_CODES_HELP}\nColour is on for a terminal only; NO_COLOR=1 turns it off, FORCE_COLOR=1 on.\nAGENT_HOOKS_CTK_DEBUG=1 prints the stack of an internal error.`);
  for (const register of [
    registerRun,
    registerValidate,
    registerList,
    registerIdentity,
    registerReferenceHost,
    registerInit,
    registerCoverage,
    registerSelftest,
    registerVerifyReport,
    registerClaim,
    registerFuzz,
    registerDiff,
    registerMerge,
  ]) {
    register(program);
  }
  return program;
}

/** Runs the CLI and returns the exit code; never throws, never prints a stack trace. */
export async function main(argv: string[], program: Command = buildProgram()): Promise<number> {
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

async function runMain(program: Command, argv: string[]): Promise<number> {
  try {
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
