// What a host author configures an emitter with (createEmitter, createHookSession). Apart from types.ts so the
// HostParts seam (parts.ts, which itself builds on types.ts) can be one of the options without an import cycle.
import type { Composition, InterceptionRecord, Mode } from '../core/types.js';
import type { Bounds } from '../core/envelope.js';
import type { Postures } from '../core/postures.js';
import type { HostPartsOverride } from './parts.js';
import type { ApprovalRedactor, ApprovalResolver, IdentityProviderOption, InterceptorLike } from './types.js';

export interface EmitterOptions {
  agent: { id: string; framework: string; name?: string; version?: string };
  session: { id: string; started_at?: string; turn?: number };
  interceptors?: InterceptorLike[];
  /** §7.2: profile + knobs; unset knobs take the normative defaults. Default profile sequential/first_deny. */
  composition?: Partial<Composition>;
  /** §8, default "enforce". */
  mode?: Mode;
  /** §10.1, default "jcs-sha256". */
  identityProvider?: IdentityProviderOption;
  resolver?: ApprovalResolver | null;
  redactor?: ApprovalRedactor | null;
  /** §7: default 5000 ms. */
  interceptorTimeoutMs?: number;
  /** §9: default 5000 ms. */
  resolverTimeoutMs?: number;
  /** §12.3 */
  bounds?: Bounds;
  /** Optional W3C trace block copied into every context (§4.5) and hence every record. */
  trace?: { trace_id?: string; span_id?: string };
  /** Sink for every record, in emission order. */
  onRecord?: (record: InterceptionRecord) => void;
  /** Clock for timestamps (tests). */
  now?: () => Date;
  /**
   * §7.4 vs §10.3 (posture stop_approval_fold_truncated, READINGS.md): "when_skipped" (default) records
   * fold_truncated true after an approved stop only if interceptors were skipped; "always" records it after every one.
   */
  stopApprovalFoldTruncated?: Postures['stop_approval_fold_truncated'];
  /** Mutation seam: override named obligation-bearing steps (see README). */
  parts?: HostPartsOverride;
}
