// The declared surface (§13.1): validated from a harness's describe() or a --surface YAML/JSON file.
// Defaults: buffered_output true (§12.1a), every registered posture at its default (src/core/postures.ts),
// identity_providers ["jcs-sha256"] (§10.1 default provider), modes both (§8 MUST support both), capabilities [].
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isPlainObject } from '../core/json.js';
import { KNOB_VALUES, PROFILE_KNOBS, PROFILES, MODES, type Knob, type Profile } from '../core/types.js';
import { resolvePostures, resolveReadings } from './declared-choices.js';
import { CAPABILITIES, type HostSurface } from './contract.js';
import { resolveLayout } from './layout.js';
import { decodeUtf8, Utf8Error } from '../core/utf8.js';

/** yaml is loaded when a surface file is read, not by every run that imports this module. */
const parseYaml = (text: string): unknown => (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text);

export class SurfaceError extends Error {
  constructor(
    readonly source: string,
    detail: string,
  ) {
    super(`${source}: ${detail}`);
    this.name = 'SurfaceError';
  }
}


/** Reads a --surface file (YAML or JSON; YAML is a superset). */
export function readSurfaceFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = decodeUtf8(readFileSync(file));
  } catch (error) {
    if (error instanceof Utf8Error) throw new SurfaceError(file, error.message);
    const code = (error as NodeJS.ErrnoException).code;
    throw new SurfaceError(file, `cannot read surface file (${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (code ?? String(error))})`);
  }
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    throw new SurfaceError(file, `not valid YAML/JSON: ${(error as Error).message.split('\n')[0]!.replace(/:$/, '')}`);
  }
  if (!isPlainObject(value)) throw new SurfaceError(file, 'a surface is a mapping with name, version, capabilities, profiles, identity_providers, modes, postures');
  return value;
}

/** Validates a surface (with defaults filled); `source` names where it came from in errors. */
export function validateSurface(value: unknown, source: string): HostSurface {
  const bad = (path: string, what: string): never => {
    throw new SurfaceError(source, `${path}: ${what}`);
  };
  if (!isPlainObject(value)) return bad('/', 'the surface must be an object');
  const known = new Set(['name', 'version', 'protocol', 'sdk', 'capabilities', 'buffered_output', 'exposure_bound', 'profiles', 'identity_providers', 'modes', 'postures', 'readings', 'layout', 'bounds', 'not_declared']);
  for (const key of Object.keys(value)) if (!known.has(key)) bad(`/${key}`, `unknown member (allowed: ${[...known].join(', ')})`);
  if (typeof value.name !== 'string' || value.name === '') bad('/name', 'must be a non-empty string');
  if (typeof value.version !== 'string' || value.version === '') bad('/version', 'must be a non-empty string');
  if (value.protocol !== undefined && typeof value.protocol !== 'string') bad('/protocol', 'must be a string');
  if (value.sdk !== undefined) {
    const sdk = value.sdk;
    if (!isPlainObject(sdk) || typeof sdk.lang !== 'string' || typeof sdk.version !== 'string') bad('/sdk', 'must be {lang: string, version: string}');
  }
  const capabilities = value.capabilities ?? [];
  if (!Array.isArray(capabilities)) return bad('/capabilities', 'must be a list');
  capabilities.forEach((c, i) => {
    if (!(CAPABILITIES as readonly unknown[]).includes(c)) bad(`/capabilities/${i}`, `unknown capability ${JSON.stringify(c)} (known: ${CAPABILITIES.join(', ')})`);
  });
  const buffered = value.buffered_output ?? true;
  if (typeof buffered !== 'boolean') bad('/buffered_output', 'must be true or false');
  const exposure = value.exposure_bound;
  if (exposure !== undefined && (typeof exposure !== 'string' || exposure.trim() === ''))
    bad('/exposure_bound', 'must be a non-empty string stating which content can reach the caller ahead of its verdict, and how much (§12.1a)');
  if (!isPlainObject(value.profiles)) return bad('/profiles', 'must map each supported profile to its supported knob values, e.g. {"sequential/first_deny": {"on_approval": ["stop"]}}');
  const profiles: HostSurface['profiles'] = {};
  for (const [profile, knobs] of Object.entries(value.profiles)) {
    if (!(PROFILES as readonly string[]).includes(profile)) bad(`/profiles/${profile}`, `unknown profile (the §7.2 set is closed: ${PROFILES.join(', ')})`);
    const k = knobs ?? {};
    if (!isPlainObject(k)) return bad(`/profiles/${profile}`, 'must map knob names to lists of values');
    const out: Partial<Record<Knob, string[]>> = {};
    for (const [knob, values] of Object.entries(k)) {
      if (!(PROFILE_KNOBS[profile as Profile] as readonly string[]).includes(knob)) bad(`/profiles/${profile}/${knob}`, knobNotConsulted(profile as Profile, knob));
      if (!Array.isArray(values) || values.length === 0) return bad(`/profiles/${profile}/${knob}`, 'must be a non-empty list of values');
      values.forEach((v, i) => {
        if (!KNOB_VALUES[knob as Knob].includes(v as string)) bad(`/profiles/${profile}/${knob}/${i}`, `must be one of ${KNOB_VALUES[knob as Knob].join(', ')}`);
      });
      out[knob as Knob] = values as string[];
    }
    profiles[profile as Profile] = out;
  }
  const providers = value.identity_providers ?? ['jcs-sha256'];
  if (!Array.isArray(providers)) return bad('/identity_providers', 'must be a list of provider names or null');
  providers.forEach((p, i) => {
    if (p !== null && (typeof p !== 'string' || !/^[a-z][a-z0-9_-]*$/.test(p))) bad(`/identity_providers/${i}`, 'must be null or a name matching ^[a-z][a-z0-9_-]*$ (§10.1)');
  });
  const modes = value.modes ?? [...MODES];
  if (!Array.isArray(modes)) return bad('/modes', 'must be a list');
  modes.forEach((m, i) => {
    if (!(MODES as readonly unknown[]).includes(m)) bad(`/modes/${i}`, `must be one of ${MODES.join(', ')}`);
  });
  // §13.1: postures are the registry's (src/core/postures.ts); an unknown name or value is a surface error.
  const postures = resolvePostures(value.postures);
  if (!postures.ok) return bad(postures.name === '' ? '/postures' : `/postures/${postures.name}`, postures.problem);
  // The contested readings (src/core/readings.ts): the registry's names and values, defaults filled in.
  const readings = resolveReadings(value.readings);
  if (!readings.ok) return bad(readings.name === '' ? '/readings' : `/readings/${readings.name}`, readings.problem);
  // The conversation layout (layout.ts): the reference loop's where a member is left out.
  const layout = resolveLayout(value.layout);
  if (!layout.ok) return bad(layout.member === '' ? '/layout' : `/layout/${layout.member}`, layout.problem);
  if (value.bounds !== undefined && !isPlainObject(value.bounds)) bad('/bounds', 'must be a mapping');
  if (value.not_declared !== undefined) {
    if (!isPlainObject(value.not_declared)) bad('/not_declared', 'must map what is not declared to why, e.g. {"streaming": "the model interface is called through generateText only"}');
    for (const [k, v] of Object.entries(value.not_declared as Record<string, unknown>)) {
      if (typeof v !== 'string' || v === '') bad(`/not_declared/${k}`, 'must be a non-empty string saying why');
    }
  }
  const surface: HostSurface = {
    name: value.name as string,
    version: value.version as string,
    capabilities: capabilities as string[],
    buffered_output: buffered as boolean,
    profiles,
    identity_providers: providers as Array<string | null>,
    modes: modes as HostSurface['modes'],
    postures: postures.postures,
    readings: readings.readings,
    layout: layout.layout,
  };
  if (value.protocol !== undefined) surface.protocol = value.protocol as string;
  if (value.sdk !== undefined) surface.sdk = value.sdk as HostSurface['sdk'] & object;
  if (value.bounds !== undefined) surface.bounds = value.bounds as HostSurface['bounds'];
  if (exposure !== undefined) surface.exposure_bound = exposure as string;
  if (value.not_declared !== undefined) surface.not_declared = value.not_declared as Record<string, string>;
  // §5.2: an input seam that holds text only cannot also carry object content.
  if (surface.capabilities.includes('text_only_input') && surface.capabilities.includes('structured_input_content'))
    bad('/capabilities', 'text_only_input contradicts structured_input_content (an input seam holds objects or it does not, §4.2, §5.2)');
  // §12.1a: a buffering host never declares incremental_output, and has no exposure to bound.
  if (surface.buffered_output && surface.capabilities.includes('incremental_output'))
    bad('/capabilities', 'incremental_output contradicts buffered_output: true (§12.1a)');
  if (surface.buffered_output && exposure !== undefined)
    bad('/exposure_bound', 'an exposure bound is stated only with buffered_output: false (§12.1a: a buffering host releases nothing ahead of the output verdict)');
  // §12.1a: a host that mediates incrementally MUST state its exposure bound in the declaration.
  if (surface.capabilities.includes('incremental_output') && exposure === undefined)
    bad('/exposure_bound', 'incremental_output is declared, so the exposure bound must be stated (§12.1a), e.g. "none: release is watermark-gated"');
  return surface;
}

/** The surface in effect: the harness's own declaration, with a --surface file's members overriding it. */
export function effectiveSurface(described: unknown, override: Record<string, unknown> | undefined, overrideSource?: string, describedSource = 'harness describe()'): HostSurface {
  if (!override) return validateSurface(described, describedSource);
  const base = isPlainObject(described) ? described : {};
  return validateSurface({ ...base, ...override }, overrideSource ?? '--surface');
}

/** §7.2: every profile with every value of every knob it consults (what the emitter supports, so every host built on it). */
export function everyProfileAndKnob(): HostSurface['profiles'] {
  const profiles: HostSurface['profiles'] = {};
  for (const p of PROFILES as readonly Profile[]) {
    const knobs: Partial<Record<Knob, string[]>> = {};
    for (const k of PROFILE_KNOBS[p]) knobs[k] = [...KNOB_VALUES[k]];
    profiles[p] = knobs;
  }
  return profiles;
}

/** §7.2 / §10.3: the one-line problem for a knob declared under a profile that never consults it. */
export function knobNotConsulted(profile: Profile, knob: string): string {
  const consulted = PROFILE_KNOBS[profile];
  const which = consulted.length === 0 ? 'no knob' : consulted.join(', ') + ' only';
  const why = profile === 'parallel/unanimous' && knob === 'on_transform_conflict' ? '; under unanimous any transform is a disagreement, handled per on_disagreement (§7.5)' : '';
  return `profile ${profile} does not consult ${knob}: it consults ${which} (§7.2, §10.3)${why}`;
}
