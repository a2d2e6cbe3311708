// The errors connect.ts raises when a harness cannot be chosen or does not describe itself. They live apart from
// connect.ts so that the CLI's exit-code mapping (cli/exit.ts), loaded by every command and by --version, does
// not load the harnesses to recognize them.

/** The choice cannot be carried out as given (bad input: exit 2); the message says which option and why. */
export class HarnessChoiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HarnessChoiceError';
  }
}

/** The harness did not state its surface (a failed or slow describe() with no surface file to fall back on). */
export class DescribeError extends Error {
  constructor(
    readonly label: string,
    readonly detail: string,
  ) {
    super(`the harness (${label}) failed to describe its surface (${detail})`);
    this.name = 'DescribeError';
  }
}
