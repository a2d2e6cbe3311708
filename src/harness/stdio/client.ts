// The CTK side of the stdio JSON-RPC harness protocol. STUB: owned by the stdio issue.
import type { Harness } from '../contract.js';

export interface StdioHarnessOptions {
  /** The host's command line, split without a shell. */
  command: string;
  cwd?: string;
  /** Per-request deadline; on breach the process is killed and restarted. Default 30000. */
  timeoutMs?: number;
  /** Called with each stderr line of the host. */
  onLog?: (line: string) => void;
}

export function createStdioHarness(_options: StdioHarnessOptions): Harness {
  throw new Error('stdio harness not implemented yet');
}
