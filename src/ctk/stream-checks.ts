// §12.1 exception (incremental mediation), checked from the CTK's own side: the mock model counted every chunk
// the host pulled, so "a deny terminates the stream" is observed, not taken from the host's word.
import type { JsonObject } from '../core/types.js';
import type { Failure } from '../results/model.js';
import type { StreamObservation } from './mocks.js';

const isBlocked = (rec: JsonObject) => (rec.verdict as JsonObject | undefined)?.decision === 'deny' && rec.mode !== 'evaluate_only';

/** The post_model_call records of each model call (by call index): those between an unblocked pre_model_call and the next pre_model_call. */
export function postsByModelCall(records: JsonObject[]): JsonObject[][] {
  const calls: JsonObject[][] = [];
  let current: JsonObject[] | undefined;
  for (const rec of records) {
    if (rec.interception_point === 'pre_model_call') {
      current = isBlocked(rec) ? undefined : [];
      if (current) calls.push(current);
    } else if (rec.interception_point === 'post_model_call') current?.push(rec);
  }
  return calls;
}

/**
 * For a host declaring incremental_output, per streamed response: after a deny (enforce) at one of its
 * post_model_call emissions no further emission follows for that response (rule 2), and the host pulled no chunk
 * beyond those the emissions up to the deny covered (GRAMMAR.md §9.2: after a deny no further chunk is pulled).
 */
export function checkStreamConsumption(records: JsonObject[], streams: readonly StreamObservation[]): Failure[] {
  const f: Failure[] = [];
  const byCall = postsByModelCall(records);
  for (const s of streams) {
    const posts = byCall[s.call] ?? [];
    const denied = posts.findIndex(isBlocked);
    if (denied === -1) continue;
    const after = posts.length - denied - 1;
    if (after > 0)
      f.push({ clause: '12.1', check: 'stream.terminated', path: `model_calls[${s.call}]`, expected: 'no post_model_call after the deny', got: after, message: `model call ${s.call}: the host emitted ${after} more post_model_call after a deny ended the streamed response (§12.1 exception, rule 2)` });
    if (s.delivered > denied + 1)
      f.push({ clause: '12.1', check: 'stream.consumption', path: `model_calls[${s.call}]`, expected: `at most ${denied + 1} chunks`, got: s.delivered, message: `model call ${s.call}: the host pulled ${s.delivered} chunks of the stream, but a deny at emission ${denied + 1} ended it after ${denied + 1}; no further chunk may be consumed (observed by the CTK's mock model)` });
  }
  return f;
}
