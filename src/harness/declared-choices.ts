// A host's declared choices: §13.1 postures (core/postures.ts) and the kit's contested readings (core/readings.ts,
// READINGS.md). The registries live in core, where the reference host reads its defaults; validating a declaration
// and listing what a claim discloses (§13.3) is the harness's side (a surface from describe(), a flag, a claim), so
// it lives here: no host code calls it.
import { POSTURES, type PostureName, type Postures, type PostureSpec } from '../core/postures.js';
import { READINGS, type ReadingName, type Readings } from '../core/readings.js';

type Registry = Readonly<Record<string, PostureSpec>>;
type Check<K extends string, V> = ({ ok: true } & Record<K, V>) | { ok: false; name: string; problem: string };

export type PostureCheck = Check<'postures', Postures>;
export type ReadingCheck = Check<'readings', Readings>;

/** The registry's defaults: what a host that declares none is judged under. */
function defaultsOf(registry: Registry): Record<string, string> {
  return Object.fromEntries(Object.entries(registry).map(([name, spec]) => [name, spec.default]));
}

/**
 * A declared map checked against a registry, defaults filled in; an unknown name or a value the entry does not have
 * is a problem naming the member (the caller turns it into its surface error).
 */
function resolveChoices(registry: Registry, kind: string, see: string, declared: unknown): { ok: true; values: Record<string, string> } | { ok: false; name: string; problem: string } {
  if (declared === undefined || declared === null) return { ok: true, values: defaultsOf(registry) };
  if (typeof declared !== 'object' || Array.isArray(declared)) return { ok: false, name: '', problem: `must be a mapping of ${kind} name to value` };
  const out = defaultsOf(registry);
  for (const [name, value] of Object.entries(declared as Record<string, unknown>)) {
    const spec = Object.prototype.hasOwnProperty.call(registry, name) ? registry[name] : undefined;
    if (!spec) return { ok: false, name, problem: `unknown ${kind} (known: ${Object.keys(registry).join(', ')}${see})` };
    if (typeof value !== 'string' || !spec.values.includes(value)) {
      return { ok: false, name, problem: `must be one of ${spec.values.map((v) => JSON.stringify(v)).join(' or ')} (${spec.clause})` };
    }
    out[name] = value;
  }
  return { ok: true, values: out };
}

/** The declared values that differ from the registry default, in registry order. */
function nonDefaultChoices<N extends string>(registry: Registry, declared: Partial<Record<string, string>> | undefined): Array<{ name: N; value: string }> {
  const out: Array<{ name: N; value: string }> = [];
  for (const [name, spec] of Object.entries(registry)) {
    const value = declared?.[name];
    if (value !== undefined && value !== spec.default) out.push({ name: name as N, value });
  }
  return out;
}

/** A declared posture map (§13.1) validated, defaults filled in. */
export function resolvePostures(declared: unknown): PostureCheck {
  const r = resolveChoices(POSTURES, 'posture', '', declared);
  return r.ok ? { ok: true, postures: r.values as Postures } : r;
}

/** A declared reading map (READINGS.md) validated, defaults filled in. */
export function resolveReadings(declared: unknown): ReadingCheck {
  const r = resolveChoices(READINGS, 'reading', '; READINGS.md', declared);
  return r.ok ? { ok: true, readings: r.values as Readings } : r;
}

/** The declared postures that differ from the default, in registry order (§13.3 disclosure). */
export const nonDefaultPostures = (postures: Partial<Record<string, string>> | undefined): Array<{ name: PostureName; value: string }> => nonDefaultChoices(POSTURES, postures);

/** The declared readings that differ from the default, in registry order (the claim names them). */
export const nonDefaultReadings = (readings: Partial<Record<string, string>> | undefined): Array<{ name: ReadingName; value: string }> => nonDefaultChoices(READINGS, readings);
