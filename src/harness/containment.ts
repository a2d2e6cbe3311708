// An in-process harness shares the CTK's process: an error it throws from a timer, a promise it lets
// reject unobserved, or a process.exit() it calls would otherwise crash the CTK with a stack trace or
// end it with exit 0 and no report (a false pass). While contained, such errors are collected for the
// runner (which fails the vector they happened in) and process.exit throws instead of exiting.

/** Thrown in place of exiting when a contained harness calls process.exit(). */
export class HarnessExitError extends Error {
  constructor(readonly code: unknown) {
    super(`the harness called process.exit(${code === undefined ? '' : JSON.stringify(code)}); a harness must not end the CTK's process`);
    this.name = 'HarnessExitError';
  }
}

export interface Containment {
  /** The errors raised outside any harness call since the last take(), as one-line messages. */
  take(): string[];
  /** Restores process.exit and removes the handlers. */
  release(): void;
}

const describe = (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message.split('\n')[0]}` : `a non-Error value was thrown: ${String(e)}`);

export function containHarness(): Containment {
  const stray: string[] = [];
  const realExit = process.exit;
  const onException = (error: unknown) => {
    stray.push(error instanceof HarnessExitError ? error.message : `uncaught exception: ${describe(error)}`);
  };
  const onRejection = (reason: unknown) => {
    stray.push(`unhandled promise rejection: ${describe(reason)}`);
  };
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  process.exit = ((code?: unknown) => {
    throw new HarnessExitError(code);
  }) as typeof process.exit;
  let released = false;
  return {
    take: () => stray.splice(0, stray.length),
    release: () => {
      if (released) return;
      released = true;
      process.exit = realExit;
      process.off('uncaughtException', onException);
      process.off('unhandledRejection', onRejection);
    },
  };
}
