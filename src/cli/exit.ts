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

/** A failure with a one-paragraph message for the user and a distinct exit code; printed without a stack trace. */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  constructor(exitCode: ExitCode, message: string) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}
