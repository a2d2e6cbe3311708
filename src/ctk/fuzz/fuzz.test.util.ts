// Test support: run one case on a host and the reference host and return its divergence (or undefined).
import type { Harness } from '../../harness/contract.js';
import { createReferenceHarness, referenceSurface } from '../../harness/reference-harness.js';
import { executeVector } from '../runner.js';
import type { Vector } from '../vector.js';
import { firstDivergence, type Divergence } from './trace-diff.js';
import { normalizeExecution } from './normalize.js';

export async function checkCaseOnce(host: Harness, v: Vector): Promise<Divergence | undefined> {
  const surface = referenceSurface();
  const [h, r] = await Promise.all([
    executeVector(v, { harness: host, timeoutMs: 5000, recordAll: true }),
    executeVector(v, { harness: createReferenceHarness(), timeoutMs: 5000, recordAll: true }),
  ]);
  return firstDivergence(normalizeExecution(h, { vector: v, surface }), normalizeExecution(r, { vector: v, surface }), v);
}
