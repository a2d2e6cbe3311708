// When a host's own core raises a `host_error:*` out of the run instead of recording the deny it names (a lone
// surrogate the core cannot serialize, a context it judges invalid), the spec's fail-closed rule decides: the host
// MUST treat the outcome as a recorded deny. The CTK reports that as the host's defect, citing the sentence, never
// as "the harness threw" with no clause.
import type { Failure } from '../results/model.js';

/** The check a raised host_error is reported under. */
export const FAIL_CLOSED_CHECK = 'host.fail_closed';

/** The reserved host_error codes (§11) a raised error may name. */
const HOST_ERROR_IN_TEXT = /\bhost_error:([a-z_]+)\b/;

/** §6.3 for a context the host could not construct; §1.3 (Fail closed) for every other host_error it raised. */
const SENTENCES: Readonly<Record<string, { clause: string; sentence: string }>> = {
  context_invalid: { clause: '6.3', sentence: 'a host that fails to construct a valid AgentContext "MUST treat the emission as" a host_error:context_invalid deny "without dispatching to any interceptor"' },
};
const FAIL_CLOSED = { clause: '1.3', sentence: 'Fail closed: a host that cannot construct a valid AgentContext, cannot reach an interceptor or receives an invalid Verdict "MUST treat the outcome as deny with a host_error:* reason per §11"' };

/**
 * The failure for an error the host's run raised, when its text names a `host_error:*` code: the host failed a
 * fail-closed rule (§1.3, §6.3) by raising what it must record. Undefined for any other error (the harness failed).
 */
export function failClosedFailure(errorText: string): Failure | undefined {
  const code = HOST_ERROR_IN_TEXT.exec(errorText)?.[1];
  if (code === undefined) return undefined;
  const { clause, sentence } = SENTENCES[code] ?? FAIL_CLOSED;
  return {
    clause,
    check: FAIL_CLOSED_CHECK,
    message: `the host raised host_error:${code} out of the run instead of recording it as a deny (§${clause}: ${sentence}): ${errorText}`,
  };
}
