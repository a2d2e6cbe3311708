// The oracle: the built-in reference host, configured from the host's declared surface so that where the spec
// permits two behaviours (READINGS.md) it takes the same reading the host declares (HostSurface.postures).
// This factory is the one place that chooses the reference configuration; a configuration the reference host
// cannot take is bad input, never a silent choice.
import type { Harness, HostSurface } from '../../harness/contract.js';
import { createReferenceHarness, type ReferenceHarnessOptions } from '../../harness/reference-harness.js';

export class OracleConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OracleConfigError';
  }
}

export interface Oracle {
  /** A fresh reference harness for one worker. */
  create(): Harness;
  /** What the oracle is, for the summary. */
  label: string;
}

/** The options the reference harness takes to honour the host's postures (agreed interface: `{ postures }`). */
type OracleOptions = ReferenceHarnessOptions & { postures?: Record<string, string> };

/**
 * The oracle for a host surface. Seam: a host declaring `incremental_output` will be compared against the
 * reference host's incremental configuration once it exists (issue 14); today every generated case is a
 * non-streamed one, which both configurations mediate the same way.
 */
export async function createOracle(surface: HostSurface): Promise<Oracle> {
  const options: OracleOptions = { postures: { ...surface.postures } };
  const create = (): Harness => createReferenceHarness(options);
  // The reference host declares the postures it runs with: every posture the host declares must be one it took.
  const probe = create();
  let declared: Record<string, string>;
  try {
    declared = (await probe.describe()).postures as Record<string, string>;
  } finally {
    await probe.close?.();
  }
  const refused = Object.entries(surface.postures).filter(([name, value]) => declared[name] !== value);
  if (refused.length > 0) {
    const list = refused.map(([name, value]) => `${name}=${value} (the reference host runs ${name}=${declared[name] ?? '(undeclared)'})`).join(', ');
    throw new OracleConfigError(
      `the reference host cannot take the declared posture${refused.length === 1 ? '' : 's'} ${list}; comparing against it would report its reading as divergences. ` +
        'Fuzz with the postures the reference host supports (--surface), or wait for it to support this one.',
    );
  }
  return { create, label: `reference host (postures ${Object.entries(declared).map(([k, v]) => `${k}=${v}`).join(', ')})` };
}
