// The oracle: the built-in reference host, configured from the host's declared surface so that where the spec
// permits two behaviours (READINGS.md) it takes the same reading the host declares (HostSurface.postures), and lays
// its model requests out as the host declares (HostSurface.layout): the spec leaves the message list to the host, so
// a host's layout is never a divergence.
// This factory is the one place that chooses the reference configuration; a configuration the reference host
// cannot take is bad input, never a silent choice.
import type { Harness, HostSurface } from '../../harness/contract.js';
import { createReferenceHarness } from '../../harness/reference-harness.js';
import type { Postures } from '../../core/postures.js';
import { nonDefaultPostures, nonDefaultReadings, resolvePostures, resolveReadings } from '../../harness/declared-choices.js';
import { describeLayout, isReferenceLayout, resolveLayout, type ConversationLayout } from '../../harness/layout.js';

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
  /** The host's declared layout, resolved (every member filled in): the one create() runs under. */
  layout: ConversationLayout;
  /** A fresh reference harness with the same postures and streaming under another layout (the written vector's layout check). */
  createUnder(layout: ConversationLayout): Harness;
  /** A fresh default reference host with the same streaming discipline: default postures, readings and layout (what `run` uses). */
  createDefault(): Harness;
  /** The declared postures and readings that are not the registry defaults (what a written vector may have to state). */
  nonDefault: { postures: Record<string, string>; readings: Record<string, string> };
}

export async function createOracle(surface: HostSurface): Promise<Oracle> {
  const check = resolvePostures(surface.postures);
  if (!check.ok) throw new OracleConfigError(`the declared posture ${check.name} ${check.problem}`);
  const postures: Partial<Postures> = check.postures;
  // §12.1 exception: a host mediating streams incrementally is compared with the reference host's incremental
  // configuration; every other host with the buffered one.
  const streaming = surface.capabilities.includes('incremental_output') ? 'incremental' : 'buffered';
  const laidOut = resolveLayout(surface.layout);
  if (!laidOut.ok) throw new OracleConfigError(`the declared layout ${laidOut.member} ${laidOut.problem}`);
  const layout = laidOut.layout;
  // The contested readings too (src/core/readings.ts): the reference host takes every value of each.
  const read = resolveReadings(surface.readings);
  if (!read.ok) throw new OracleConfigError(`the declared reading ${read.name} ${read.problem}`);
  const readings = read.readings;
  const createUnder = (under: ConversationLayout): Harness => createReferenceHarness({ postures, readings, streaming, layout: under });
  const create = (): Harness => createUnder(layout);
  // The reference host declares the postures it runs with: every posture the host declares must be one it took.
  const probe = create();
  let declared: Record<string, string>;
  try {
    declared = (await probe.describe()).postures as Record<string, string>;
  } finally {
    await probe.close?.();
  }
  const refused = Object.entries(surface.postures as Record<string, string>).filter(([name, value]) => declared[name] !== value);
  if (refused.length > 0) {
    const list = refused.map(([name, value]) => `${name}=${value} (the reference host runs ${name}=${declared[name] ?? '(undeclared)'})`).join(', ');
    throw new OracleConfigError(
      `the reference host cannot take the declared posture${refused.length === 1 ? '' : 's'} ${list}; comparing against it would report its reading as divergences. ` +
        'Fuzz with the postures the reference host supports (--surface), or wait for it to support this one.',
    );
  }
  const layoutNote = isReferenceLayout(layout) ? '' : `; layout ${describeLayout(layout)}`;
  const createDefault = (): Harness => createReferenceHarness({ streaming });
  const nonDefault = {
    postures: Object.fromEntries(nonDefaultPostures(postures as Record<string, string>).map((p) => [p.name, p.value])),
    readings: Object.fromEntries(nonDefaultReadings(readings as Record<string, string>).map((r) => [r.name, r.value])),
  };
  return { create, createUnder, createDefault, nonDefault, layout, label: `reference host (${streaming}; postures ${Object.entries(declared).map(([k, v]) => `${k}=${v}`).join(', ')}${layoutNote})` };
}
