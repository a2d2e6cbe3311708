// Skips by the whole declared surface (§13.1): capabilities, profile and every knob value,
// identity provider, mode, posture. A skip always names exactly what the host did not declare.
import { KNOB_DEFAULTS, PROFILE_KNOBS, type Knob, type Profile } from '../core/types.js';
import { declaredPostureValue, declaredReadingValue } from './posture-cases.js';
import type { HostSurface } from '../harness/contract.js';
import { layoutSkip } from '../harness/layout.js';
import { usesStream, type LoadedVector } from './vector.js';
import type { SkipGate } from '../results/model.js';

const DEFAULT_PROFILE: Profile = 'sequential/first_deny';

/** What a skip names as undeclared (§13.1): one member of the declared surface. */
export type SkipKind = 'capability' | 'stream_assembly' | 'profile' | 'knob' | 'identity_provider' | 'mode' | 'posture' | 'reading' | 'layout';

/**
 * Why a vector does not apply to a surface, as data: `kind` and `member` say what the surface lacks (a capability
 * name — the first one missing, when several are —, a profile, `knob=value`, a provider ("null" for none), a mode, a
 * posture name; `buffered_output` for a host that mediates streams incrementally), `reason` says it in the words every
 * report prints.
 */
export interface Skip {
  kind: SkipKind;
  member: string;
  reason: string;
}

/** Which part of the declared surface a skip of this kind comes from (report.json's per-skip `skip_gate`). */
export function skipGate(kind: SkipKind): SkipGate {
  return kind === 'layout' ? 'layout' : kind === 'posture' ? 'posture' : 'not_declared';
}

/** The reason the vector does not apply to this surface, or undefined when it applies. */
export function skipReason(lv: LoadedVector, surface: HostSurface): string | undefined {
  return skipOf(lv, surface)?.reason;
}

/** Why the vector does not apply to this surface, or undefined when it applies. */
export function skipOf(lv: LoadedVector, surface: HostSurface): Skip | undefined {
  const v = lv.vector;
  const declared = new Set(surface.capabilities);
  // §12.1 exception: a host that mediates streams incrementally streams (incremental_output implies streaming).
  const incremental = declared.has('incremental_output');
  if (incremental) declared.add('streaming');
  const missing = lv.requiredCapabilities.filter((c) => !declared.has(c));
  if (missing.length > 0) return { kind: 'capability', member: missing[0]!, reason: `host does not declare capabilit${missing.length === 1 ? 'y' : 'ies'} ${missing.join(', ')}` };
  // A stream vector that is not an incremental one expects buffered assembly (one post_model_call over the whole
  // response), unless it says its expectations hold for either discipline (HARNESS.md §4).
  if (incremental && usesStream(v) && !lv.requiredCapabilities.includes('incremental_output') && v.stream_mediation !== 'any') {
    return {
      kind: 'stream_assembly',
      member: 'buffered_output',
      reason: 'host does not declare buffered stream assembly (it mediates streams incrementally: incremental_output); the vector expects one post_model_call over the assembled response',
    };
  }

  const profile = (v.composition?.profile ?? DEFAULT_PROFILE) as Profile;
  const knobsDeclared = surface.profiles?.[profile];
  if (knobsDeclared === undefined) return { kind: 'profile', member: profile, reason: `host does not declare profile ${profile}` };
  // Every knob the profile consults: the value the vector sets, or the §7.2 default the host must support too.
  for (const knob of PROFILE_KNOBS[profile] ?? []) {
    const value = v.composition?.[knob as Knob] ?? KNOB_DEFAULTS[knob as Knob];
    const values = knobsDeclared[knob as Knob] ?? [];
    if (!values.includes(value)) return { kind: 'knob', member: `${knob}=${value}`, reason: `host does not declare profile ${profile} with ${knob}=${value}` };
  }

  const provider = v.identity_provider === undefined ? 'jcs-sha256' : v.identity_provider;
  if (!(surface.identity_providers ?? []).includes(provider)) {
    const name = provider === null ? 'null' : provider;
    return { kind: 'identity_provider', member: name, reason: `host does not declare identity provider ${name}` };
  }

  const mode = v.mode ?? 'enforce';
  if (!(surface.modes ?? []).includes(mode)) return { kind: 'mode', member: mode, reason: `host does not declare mode ${mode}` };

  // §13.1: a posture-gated vector runs only on a host declaring exactly that value (undeclared = the default).
  for (const [name, value] of Object.entries(v.postures ?? {})) {
    const declared = declaredPostureValue(surface, name);
    if (declared !== value) return { kind: 'posture', member: name, reason: `host does not declare posture ${name}=${value} (it declares ${name}=${declared ?? '(none)'})` };
  }
  // A reading-gated vector runs only on a host taking exactly that contested reading (undeclared = the default).
  for (const [name, value] of Object.entries(v.readings ?? {})) {
    const declared = declaredReadingValue(surface, name);
    if (declared !== value) return { kind: 'reading', member: name, reason: `host does not declare reading ${name}=${value} (it declares ${name}=${declared ?? '(none)'})` };
  }
  // A vector that depends on how the model requests are laid out runs only under that layout (GRAMMAR.md §1).
  const layout = layoutSkip(v.layout, surface.layout);
  if (layout) return { kind: 'layout', member: layout.member, reason: layout.reason };
  return undefined;
}
