// A golden fixture that contradicts RFC 8785 / §10.2 by itself is defective, whatever provider checks it. In the
// published format `canonical_json` is RFC 8785 of the whole `ctx` and `context_identity` is jcs-sha256 over the
// §10.2 projection; the two coincide only when ctx has no optional or namespaced member. Defects:
// - its canonical_json is not JSON text, or writes a number not in ECMAScript Number::toString form (RFC 8785
//   §3.2.2.3: 1.0 is written 1), or gives bytes for a ctx outside the I-JSON domain RFC 8785 covers;
// - its canonical_json renders an input number as text that parses to a different double: Number::toString
//   round-trips, so the canonical text of 9.999999999999997e+22 cannot be 9.999999999999996e+22;
// - its context_identity is not the hash of the §10.2 projection of its own (sound) canonical_json.
import { parse } from 'lossless-json';
import { sha256Hex, projectForIdentity } from '../../core/identity.js';
import { isLosslessNumberLike, isPlainObject } from '../../core/json.js';
import type { JsonObject } from '../../core/types.js';

/** A number token as written in canonical text (never converted, so the walk sees the exact text). */
export class NumberToken {
  constructor(readonly text: string) {}
}

export interface FixtureDefect {
  message: string;
  /** Where in the canonical text the defect sits (number defects only), e.g. `target.n`. */
  paths?: string[];
}

/** Parses canonical text keeping every number as its NumberToken; undefined when the text is not JSON. */
export function parseCanonicalTokens(text: string): { ok: true; value: unknown } | { ok: false; why: string } {
  try {
    return { ok: true, value: parse(text, null, (s: string) => new NumberToken(s)) };
  } catch (error) {
    return { ok: false, why: (error as Error).message };
  }
}

/**
 * The defects of a fixture's canonical_json for `ctx` (empty when sound). In the published format canonical_json is
 * RFC 8785 of the whole `ctx` as given, optional and namespaced members included (not the §10.2 projection).
 * `inDomain` says whether a canonicalizer accepts the whole ctx at all (RFC 8785 has bytes only for I-JSON data).
 */
export function canonicalDefects(ctx: unknown, canonicalJson: string, inDomain: { ok: true } | { ok: false; why: string } = { ok: true }): FixtureDefect[] {
  const defects: FixtureDefect[] = [];
  if (!inDomain.ok) defects.push({ message: `its canonical_json gives bytes for a ctx RFC 8785 has none for (${inDomain.why})` });
  const parsed = parseCanonicalTokens(canonicalJson);
  if (!parsed.ok) {
    defects.push({ message: `its canonical_json is not JSON text (${parsed.why})` });
    return defects;
  }
  // One defect per distinct problem, listing every place it occurs (target aliases a field, so most occur twice).
  const groups = new Map<string, { paths: string[]; message: (where: string) => string }>();
  const add = (key: string, path: string, message: (where: string) => string): void => {
    const group = groups.get(key) ?? { paths: [], message };
    group.paths.push(path);
    groups.set(key, group);
  };
  walkTokens(parsed.value, '', (token, path) => {
    const double = Number(token.text);
    const form = Number.isFinite(double) ? JSON.stringify(double) : undefined;
    if (form !== token.text) {
      const should = form === undefined ? 'no finite double has that text' : `Number::toString writes ${form}`;
      add(`form ${token.text}`, path, (where) => `its canonical_json writes ${token.text} at ${where}, which is not RFC 8785 number form (${should})`);
    }
  });
  walkPairs(parsed.value, ctx, '', (token, value, path) => {
    const expected = Number(token.text);
    const actual = typeof value === 'number' ? value : Number(value.value);
    if (expected !== actual && !(Number.isNaN(expected) && Number.isNaN(actual))) {
      const written = typeof value === 'number' ? JSON.stringify(value) : value.value;
      add(`round-trip ${written} ${token.text}`, path, (where) =>
        `its canonical_json renders the input number ${written} at ${where} as ${token.text}, which parses to a different double; ` +
        `RFC 8785 writes Number::toString of the input's double, which parses back to it (${JSON.stringify(actual)})`,
      );
    }
  });
  for (const { paths, message } of groups.values()) defects.push({ paths, message: message(paths.map(shown).join(', ')) });
  return defects;
}

/**
 * The §10.2 identity a canonical text implies: "sha256:" + hex SHA-256 of the RFC 8785 text of its own
 * required+conditional projection, every number written as the text has it (so a fixture whose identity was
 * hashed from its own defective bytes is recognised). Undefined when the text is not JSON or names no §3 point.
 */
export function identityOfCanonical(canonicalJson: string): string | undefined {
  const parsed = parseCanonicalTokens(canonicalJson);
  if (!parsed.ok || !isPlainObject(parsed.value)) return undefined;
  let projected: JsonObject;
  try {
    projected = projectForIdentity(parsed.value as JsonObject);
  } catch {
    return undefined; // no §3 point: no projection
  }
  return sha256Hex(tokenText(projected));
}

/** RFC 8785 text of a token-parsed value: members sorted by UTF-16 code units, each NumberToken as written. */
function tokenText(v: unknown): string {
  if (v instanceof NumberToken) return v.text;
  if (Array.isArray(v)) return `[${v.map(tokenText).join(',')}]`;
  if (isPlainObject(v)) {
    const keys = Object.keys(v).sort(); // default sort compares UTF-16 code units, as RFC 8785 §3.2.3 orders
    return `{${keys.map((k) => `${JSON.stringify(k)}:${tokenText(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Where two token-parsed canonical texts differ; `numbers` lists the positions where both hold (different) numbers. */
export function canonicalDifferences(expected: unknown, ours: unknown): { numbers: Array<{ path: string; expected: string; ours: string }>; other: string[] } {
  const out = { numbers: [] as Array<{ path: string; expected: string; ours: string }>, other: [] as string[] };
  const visit = (a: unknown, b: unknown, path: string): void => {
    if (a instanceof NumberToken || b instanceof NumberToken) {
      if (a instanceof NumberToken && b instanceof NumberToken) {
        if (a.text !== b.text) out.numbers.push({ path, expected: a.text, ours: b.text });
      } else out.other.push(path);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) out.other.push(path);
      for (let i = 0; i < Math.min(a.length, b.length); i++) visit(a[i], b[i], `${path}[${i}]`);
      return;
    }
    if (isPlainObject(a) && isPlainObject(b)) {
      const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
      for (const k of keys) {
        if (!(k in a) || !(k in b)) out.other.push(join(path, k));
        else visit(a[k], b[k], join(path, k));
      }
      return;
    }
    if (a !== b) out.other.push(path);
  };
  visit(expected, ours, '');
  return out;
}

function walkTokens(v: unknown, path: string, visit: (token: NumberToken, path: string) => void): void {
  if (v instanceof NumberToken) visit(v, path);
  else if (Array.isArray(v)) v.forEach((item, i) => walkTokens(item, `${path}[${i}]`, visit));
  else if (isPlainObject(v)) for (const [k, child] of Object.entries(v)) walkTokens(child, join(path, k), visit);
}

/** Visits the positions where the canonical text holds a number and the input holds a number too. */
function walkPairs(tokens: unknown, input: unknown, path: string, visit: (token: NumberToken, value: number | { value: string }, path: string) => void): void {
  if (tokens instanceof NumberToken) {
    if (typeof input === 'number' || isLosslessNumberLike(input)) visit(tokens, input, path);
  } else if (Array.isArray(tokens) && Array.isArray(input)) {
    for (let i = 0; i < Math.min(tokens.length, input.length); i++) walkPairs(tokens[i], input[i], `${path}[${i}]`, visit);
  } else if (isPlainObject(tokens) && isPlainObject(input) && !isLosslessNumberLike(input)) {
    for (const [k, child] of Object.entries(tokens)) if (Object.prototype.hasOwnProperty.call(input, k)) walkPairs(child, input[k], join(path, k), visit);
  }
}

const join = (path: string, key: string): string => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? (path === '' ? key : `${path}.${key}`) : `${path}[${JSON.stringify(key)}]`);
const shown = (path: string): string => (path === '' ? 'the root' : path);
