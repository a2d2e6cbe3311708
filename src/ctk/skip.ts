// Skips by the whole declared surface (§13.1): capabilities, profile and every knob value,
// identity provider, mode, posture. A skip always names exactly what the host did not declare.
import { KNOB_DEFAULTS, PROFILE_KNOBS, type Knob, type Profile } from '../core/types.js';
import { declaredPostureValue } from './posture-cases.js';
import type { HostSurface } from '../harness/contract.js';
import { usesStream, type LoadedVector } from './vector.js';

const DEFAULT_PROFILE: Profile = 'sequential/first_deny';

/** The reason the vector does not apply to this surface, or undefined when it applies. */
export function skipReason(lv: LoadedVector, surface: HostSurface): string | undefined {
  const v = lv.vector;
  const declared = new Set(surface.capabilities);
  // §12.1 exception: a host that mediates streams incrementally streams (incremental_output implies streaming).
  const incremental = declared.has('incremental_output');
  if (incremental) declared.add('streaming');
  const missing = lv.requiredCapabilities.filter((c) => !declared.has(c));
  if (missing.length > 0) return `host does not declare capabilit${missing.length === 1 ? 'y' : 'ies'} ${missing.join(', ')}`;
  // A stream vector that is not an incremental one expects buffered assembly (one post_model_call over the whole
  // response), unless it says its expectations hold for either discipline (GRAMMAR.md §9.3).
  if (incremental && usesStream(v) && !lv.requiredCapabilities.includes('incremental_output') && v.stream_mediation !== 'any')
    return 'host does not declare buffered stream assembly (it mediates streams incrementally: incremental_output); the vector expects one post_model_call over the assembled response';

  const profile = (v.composition?.profile ?? DEFAULT_PROFILE) as Profile;
  const knobsDeclared = surface.profiles?.[profile];
  if (knobsDeclared === undefined) return `host does not declare profile ${profile}`;
  // Every knob the profile consults: the value the vector sets, or the §7.2 default the host must support too.
  for (const knob of PROFILE_KNOBS[profile] ?? []) {
    const value = v.composition?.[knob as Knob] ?? KNOB_DEFAULTS[knob as Knob];
    const values = knobsDeclared[knob as Knob] ?? [];
    if (!values.includes(value)) return `host does not declare profile ${profile} with ${knob}=${value}`;
  }

  const provider = v.identity_provider === undefined ? 'jcs-sha256' : v.identity_provider;
  if (!(surface.identity_providers ?? []).includes(provider))
    return `host does not declare identity provider ${provider === null ? 'null' : provider}`;

  const mode = v.mode ?? 'enforce';
  if (!(surface.modes ?? []).includes(mode)) return `host does not declare mode ${mode}`;

  // §13.1: a posture-gated vector runs only on a host declaring exactly that value (undeclared = the default).
  for (const [name, value] of Object.entries(v.postures ?? {})) {
    const declared = declaredPostureValue(surface, name);
    if (declared !== value) return `host does not declare posture ${name}=${value} (it declares ${name}=${declared ?? '(none)'})`;
  }
  return undefined;
}
