// Exit codes and the one error type every command throws for a user-facing failure.

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
