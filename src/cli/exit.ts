// Exit codes and the one error type every command throws for a user-facing failure (library errors a command lets
// through are mapped to it here).
import { DescribeError, HarnessChoiceError } from '../harness/errors.js';

export const EXIT = {
  /** Every applicable vector passed / the command did what was asked. */
  ok: 0,
  /** A conformance failure, nothing applicable ran, or a check did not hold. */
  failed: 1,
  /** Bad input or usage: a malformed vector, a missing file, a bad flag. */
  badInput: 2,
  /** The CTK itself broke. Never a pass. */
  internal: 3,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The exit codes as --help states them. */
export const EXIT_CODES_HELP = [
  'Exit codes:',
  '  0  passed / done',
  '  1  a conformance failure, nothing applicable ran, or a check did not hold',
  '  2  bad input or usage (a malformed vector, a missing file, a bad flag)',
  '  3  an internal CTK error (never a pass)',
].join('\n');

/** A failure with a one-paragraph message for the user and a distinct exit code; printed without a stack trace. */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  constructor(exitCode: ExitCode, message: string) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** The CliError a library error stands for (a bad harness choice, a host that did not describe itself), if any. */
export function cliErrorOf(error: unknown): CliError | undefined {
  if (error instanceof CliError) return error;
  if (error instanceof HarnessChoiceError) return new CliError(EXIT.badInput, error.message);
  if (error instanceof DescribeError) {
    return new CliError(
      EXIT.failed,
      `${error.message}; nothing was run. Fix describe() (HARNESS.md), raise --timeout if it is slow, or declare the surface with --surface FILE.`,
    );
  }
  return undefined;
}

/**
 * The run is over. An in-process harness shares this process: if it left work behind (a timer, a
 * socket, a server) the CTK would never exit. Give it a moment, then exit with the run's code.
 * The timer is unref'd, so a harness that cleaned up never sees it.
 */
export function exitDespiteLeftovers(spec: string): void {
  setTimeout(() => {
    process.stderr.write(`warning: the harness ${spec} left work running after the run (timers, sockets); exiting anyway\n`);
    process.exit();
  }, 2000).unref();
}
