// The built-in reference host behind the harness contract. STUB: owned by the reference-host issue.
import type { Harness } from './contract.js';

export interface ReferenceHarnessOptions {
  /** Mutation id for the selftest (a broken variant violating one MUST); undefined: the correct host. */
  mutant?: string;
}

export function createReferenceHarness(_options: ReferenceHarnessOptions = {}): Harness {
  throw new Error('reference harness not implemented yet');
}
