// §11: the reserved reasons, the only reasons a host may synthesize.

export const HOST_ERROR = {
  context_invalid: 'host_error:context_invalid',
  interceptor_failed: 'host_error:interceptor_failed',
  interceptor_timeout: 'host_error:interceptor_timeout',
  verdict_invalid: 'host_error:verdict_invalid',
  transform_invalid: 'host_error:transform_invalid',
  transform_target_forbidden: 'host_error:transform_target_forbidden',
  transform_conflict: 'host_error:transform_conflict',
  composition_disagreement: 'host_error:composition_disagreement',
  approval_resolver_failed: 'host_error:approval_resolver_failed',
  approval_unresolved: 'host_error:approval_unresolved',
  approval_identity_mismatch: 'host_error:approval_identity_mismatch',
  adapter_unsupported: 'host_error:adapter_unsupported',
  no_interceptor: 'host_error:no_interceptor',
  streaming_unsupported: 'host_error:streaming_unsupported',
} as const;

export type HostErrorReason = (typeof HOST_ERROR)[keyof typeof HOST_ERROR];

/** §11 table: reason → cause, in the spec's order. */
// Stryker disable ArrayDeclaration,ObjectLiteral,StringLiteral: library data: the §11 table for SDK authors and docs, which no host or CTK code reads (hosts use HOST_ERROR); reasons.test.ts '§11 table: every reserved reason once, in the spec order, each with its cause' kills it
export const RESERVED_REASONS: ReadonlyArray<{ reason: HostErrorReason; cause: string }> = [
  { reason: HOST_ERROR.context_invalid, cause: 'The host could not construct a schema-valid AgentContext, or the jcs-sha256 provider rejected its value domain (§10.2).' },
  { reason: HOST_ERROR.interceptor_failed, cause: 'An interceptor raised or returned a non-JSON value.' },
  { reason: HOST_ERROR.interceptor_timeout, cause: "An interceptor exceeded the host's timeout." },
  { reason: HOST_ERROR.verdict_invalid, cause: 'An interceptor returned a value that fails §5 validation.' },
  { reason: HOST_ERROR.transform_invalid, cause: 'transform.path did not resolve or value could not be set.' },
  { reason: HOST_ERROR.transform_target_forbidden, cause: 'transform.path is not rooted at $target, or the interception point forbids transform.' },
  { reason: HOST_ERROR.transform_conflict, cause: 'Two or more transforms against the same snapshot in a parallel profile (§7.5).' },
  { reason: HOST_ERROR.composition_disagreement, cause: 'Non-unanimous outcome under parallel/unanimous (§7.5).' },
  { reason: HOST_ERROR.approval_resolver_failed, cause: 'The resolver raised or timed out.' },
  { reason: HOST_ERROR.approval_unresolved, cause: 'The resolver returned unresolved.' },
  { reason: HOST_ERROR.approval_identity_mismatch, cause: "The resolution's context_identity violated the echo rule (§9)." },
  { reason: HOST_ERROR.adapter_unsupported, cause: 'The host adapter cannot emit this interception point.' },
  { reason: HOST_ERROR.no_interceptor, cause: 'An enforce-mode emission with zero registered interceptors (§7).' },
  { reason: HOST_ERROR.streaming_unsupported, cause: 'The host cannot satisfy §12 for a streaming response.' },
];
// Stryker restore ArrayDeclaration,ObjectLiteral,StringLiteral

/** §5, §11: interceptors MUST NOT emit a reason with this prefix. */
export const HOST_ERROR_PREFIX = 'host_error:';

export function isHostErrorReason(reason: unknown): boolean {
  return typeof reason === 'string' && reason.startsWith(HOST_ERROR_PREFIX);
}
