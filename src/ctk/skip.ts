// Skips by the whole declared surface (§13.1): capabilities, profile and every knob value,
// identity provider, mode, posture. A skip always names exactly what the host did not declare.
import { KNOB_DEFAULTS, PROFILE_KNOBS, type Knob, type Profile } from '../core/types.js';
import { POSTURES, isPostureName } from '../core/postures.js';
import type { HostSurface } from '../harness/contract.js';
import type { LoadedVector } from './vector.js';

const DEFAULT_PROFILE: Profile = 'sequential/first_deny';

/** The reason the vector does not apply to this surface, or undefined when it applies. */
export function skipReason(lv: LoadedVector, surface: HostSurface): string | undefined {
  const v = lv.vector;
  const declared = new Set(surface.capabilities);
  const missing = lv.requiredCapabilities.filter((c) => !declared.has(c));
  if (missing.length > 0) return `host does not declare capabilit${missing.length === 1 ? 'y' : 'ies'} ${missing.join(', ')}`;

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
    const declared = (surface.postures as Record<string, string | undefined> | undefined)?.[name] ?? (isPostureName(name) ? POSTURES[name].default : undefined);
    if (declared !== value) return `host does not declare posture ${name}=${value} (it declares ${name}=${declared ?? '(none)'})`;
  }
  return undefined;
}
