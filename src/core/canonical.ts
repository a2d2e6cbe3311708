// §10.2 canonical_json: RFC 8785 (JCS) bytes, with the input domain enforced first (reject, never normalize).
import { IdentityDomainError } from './errors.js';
import { isLosslessNumberLike, isPlainObject, setMember } from './json.js';
import { canonicalNumberToken, isNativeNumberInDomain, nativeNumberProblem, numberProblemMessage, numberTokenProblem } from './number-domain.js';

/** §12.3 RECOMMENDED nesting bound, also enforced on the identity path. */
export const DEFAULT_MAX_DEPTH = 128;

export interface CanonicalOptions {
  /** Maximum container nesting (a scalar has depth 0, `{}` depth 1). Default 128 (§12.3). */
  maxDepth?: number;
}

/**
 * RFC 8785 canonical JSON of `value`. Throws IdentityDomainError (with `.remediation`) — never rewrites — on
 * (§10.2, §4.4): a number outside the token rule of number-domain.ts (an integer token beyond ±(2^53−1), e.g.
 * a LosslessNumber "9007199254740992", or a native integral double in [2^53, 1e21)), a non-finite number,
 * a lone surrogate in a string or member name, nesting deeper than `maxDepth`, or anything that is not JSON
 * (undefined, function, bigint, symbol, class instance, cycle). Float tokens (a LosslessNumber "1e20") and
 * native doubles from 1e21 up canonicalize as Number::toString of their double; -0 canonicalizes as 0.
 */
export function canonicalize(value: unknown, opts: CanonicalOptions = {}): string {
  const maxDepth = opts.maxDepth ?? DEFAULT_MAX_DEPTH;
  const outer = walk; // a getter in the value may itself canonicalize: each call keeps its own walk state
  try {
    // Fastest path: a key-sorted view of the value (a copy only where an object's own order is not canonical),
    // serialized by one native JSON.stringify, so the output is one flat string built in linear time.
    walk = { maxDepth, deepest: 0, memo: new Map() };
    return JSON.stringify(canonicalOrder(value, 0));
  } catch (error) {
    if (error !== OUTSIDE_DOMAIN && error !== NOT_NATIVE_ORDER && !(error instanceof RangeError)) throw error;
    if (error === NOT_NATIVE_ORDER) {
      // An object has a member name starting with a digit: JSON.stringify would put array-index names first
      // (in numeric order), RFC 8785 sorts every name by UTF-16 code units, so serialize by hand.
      try {
        objectsSerialized = 0;
        return serialize(value, 0, maxDepth);
      } catch (error2) {
        if (error2 !== OUTSIDE_DOMAIN && !(error2 instanceof RangeError)) throw error2;
      }
    }
  } finally {
    walk = outer;
  }
  // Only on rejection: the iterative walk names the offending location (and is stack-safe). It rejects exactly what
  // the walks above reject, so it throws here; the throw after it covers the one thing it does not check, a text
  // too long for one string (RangeError above).
  toCanonicalDomain(value, maxDepth);
  throw new IdentityDomainError('the value could not be canonicalized (too large for one string, or outside the RFC 8785 / I-JSON domain) (§10.2)');
}

/** Thrown by the fast path on anything outside the §10.2 domain; never escapes `canonicalize`. */
const OUTSIDE_DOMAIN = Symbol('outside the RFC 8785 domain');
/** Thrown by canonicalOrder when JSON.stringify's member order cannot be made RFC 8785's; never escapes `canonicalize`. */
const NOT_NATIVE_ORDER = Symbol('member names JSON.stringify would reorder');

/**
 * State of the current canonicalOrder walk (synchronous, so one per call). `deepest` is the deepest container
 * depth reached so far. Containers near the root (depth ≤ MEMO_DEPTH) that occur twice by reference — `target`
 * and the field it aliases (§4.3) — are walked once: the memo keeps each one's ordered view and its height, and a
 * second occurrence reuses the view when it still fits within maxDepth at its own depth.
 */
let walk: { maxDepth: number; deepest: number; memo: Map<object, { ordered: unknown; height: number }> } | undefined;
const MEMO_DEPTH = 2;

/**
 * Checks the §10.2 domain and returns the value with every object's members in RFC 8785 order (§3.2.3: sorted
 * by UTF-16 code units, which is Array.prototype.sort's default), sharing every part that already is. What it
 * returns serializes with JSON.stringify exactly as RFC 8785 prescribes (§3.2.2: strings and numbers as
 * ECMAScript writes them): only plain objects, dense arrays, well-formed strings, in-domain numbers (a
 * LosslessNumber becomes its double, whose Number::toString is its canonical text), booleans and null.
 * A member name beginning with a digit throws NOT_NATIVE_ORDER (V8 enumerates array-index names first).
 * Recursion depth is bounded by maxDepth (a cycle exceeds it).
 */
function canonicalOrder(v: unknown, depth: number): unknown {
  switch (typeof v) {
    case 'string':
      if (hasLoneSurrogate(v)) throw OUTSIDE_DOMAIN;
      return v;
    case 'number':
      if (!isNativeNumberInDomain(v)) throw OUTSIDE_DOMAIN;
      return v;
    case 'boolean':
      return v;
    case 'object': {
      if (v === null) return v;
      const w = walk!;
      if (depth >= w.maxDepth) throw OUTSIDE_DOMAIN;
      if (depth > w.deepest) w.deepest = depth;
      if (depth !== 0 && depth <= MEMO_DEPTH) return memoized(v, depth, w); // the root recurs only in a cycle
      return orderContainer(v, depth);
    }
    default:
      throw OUTSIDE_DOMAIN;
  }
}

function memoized(v: object, depth: number, w: NonNullable<typeof walk>): unknown {
  const seen = w.memo.get(v);
  if (seen !== undefined && depth + seen.height < w.maxDepth) {
    if (depth + seen.height > w.deepest) w.deepest = depth + seen.height;
    return seen.ordered;
  }
  const saved = w.deepest;
  w.deepest = depth;
  const ordered = orderContainer(v, depth);
  w.memo.set(v, { ordered, height: w.deepest - depth });
  if (saved > w.deepest) w.deepest = saved;
  return ordered;
}

/** The member names of the last object ordered, and their RFC 8785 order (a one-entry cache; names are immutable strings). */
let lastNames: readonly string[] = [];
let lastSorted: string[] = [];
let lastInOrder = true;

/**
 * The names in RFC 8785 order (§3.2.3: by UTF-16 code units, which is what `<` on strings compares), as a new
 * array. Objects have few members: insertion sort, cheaper there than Array.prototype.sort; the default sort beyond.
 */
function sortedNames(names: readonly string[]): string[] {
  if (names.length > 16) return [...names].sort();
  const out = names.slice();
  for (let i = 1; i < out.length; i++) {
    const name = out[i]!;
    let j = i - 1;
    while (j >= 0 && out[j]! > name) {
      out[j + 1] = out[j]!;
      j--;
    }
    out[j + 1] = name;
  }
  return out;
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function orderContainer(v: object, depth: number): unknown {
  if (Array.isArray(v)) {
    // A plain array whose items all stay as they are is shared; otherwise copied from the first changed item.
    let out: unknown[] | undefined = Object.getPrototypeOf(v) === Array.prototype ? undefined : [];
    for (let i = 0; i < v.length; i++) {
      if (!(i in v)) throw OUTSIDE_DOMAIN;
      const item: unknown = v[i];
      const ordered = canonicalOrder(item, depth + 1);
      if (out === undefined && ordered !== item) out = v.slice(0, i);
      if (out !== undefined) out.push(ordered);
    }
    return out ?? v;
  }
  if (isLosslessNumberLike(v)) {
    if (numberTokenProblem(v.value) !== null) throw OUTSIDE_DOMAIN;
    return Number(v.value);
  }
  if (!isPlainObject(v)) throw OUTSIDE_DOMAIN;
  const own = Object.keys(v);
  let keys: string[];
  let inOrder: boolean;
  if (sameNames(own, lastNames)) {
    // Objects in a document mostly repeat their neighbour's member names in the same order (rows of a table).
    keys = lastSorted;
    inOrder = lastInOrder;
  } else {
    inOrder = true;
    for (let i = 0; i < own.length; i++) {
      const c = own[i]!.charCodeAt(0);
      if (c >= 0x30 && c <= 0x39) throw NOT_NATIVE_ORDER;
      if (i > 0 && own[i - 1]! > own[i]!) inOrder = false;
    }
    keys = inOrder ? own : sortedNames(own);
    lastNames = own;
    lastSorted = keys;
    lastInOrder = inOrder;
  }
  // A copy with the members inserted in sorted order, unless the object already is in order and every member stays.
  const out: Record<string, unknown> = {};
  let changed = !inOrder;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const child = (v as Record<string, unknown>)[key];
    if (child === undefined || hasLoneSurrogate(key)) throw OUTSIDE_DOMAIN;
    const ordered = canonicalOrder(child, depth + 1);
    if (ordered !== child) changed = true;
    if (key === '__proto__') setMember(out, key, ordered);
    else out[key] = ordered;
  }
  return changed ? out : v;
}

/** Objects serialized in the current `serialize` walk (reset per call; serialization is synchronous). */
let objectsSerialized = 0;
const JOIN_AFTER_OBJECTS = 2048;

/**
 * Fallback for a value holding a member name that begins with a digit: domain check and RFC 8785 serialization
 * fused into one recursive pass. Strings and numbers serialize as ECMAScript JSON.stringify does, which is what
 * RFC 8785 §3.2.2 prescribes; members sort by UTF-16 code units (Array.prototype.sort's default order, RFC 8785 §3.2.3).
 * Recursion depth is bounded by `maxDepth` (a cycle exceeds it).
 */
function serialize(v: unknown, depth: number, maxDepth: number): string {
  switch (typeof v) {
    case 'string':
      if (hasLoneSurrogate(v)) throw OUTSIDE_DOMAIN;
      return JSON.stringify(v);
    case 'number':
      if (!isNativeNumberInDomain(v)) throw OUTSIDE_DOMAIN;
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object': {
      if (v === null) return 'null';
      if (depth >= maxDepth) throw OUTSIDE_DOMAIN;
      if (Array.isArray(v)) {
        // Long arrays join their parts (linear); short ones concatenate (fewer allocations).
        if (v.length > 16) {
          const parts = new Array<string>(v.length);
          for (let i = 0; i < v.length; i++) {
            if (!(i in v)) throw OUTSIDE_DOMAIN;
            parts[i] = serialize(v[i], depth + 1, maxDepth);
          }
          return '[' + parts.join(',') + ']';
        }
        let out = '[';
        for (let i = 0; i < v.length; i++) {
          if (i > 0) out += ',';
          if (!(i in v)) throw OUTSIDE_DOMAIN;
          out += serialize(v[i], depth + 1, maxDepth);
        }
        return out + ']';
      }
      if (isLosslessNumberLike(v)) {
        if (numberTokenProblem(v.value) !== null) throw OUTSIDE_DOMAIN;
        return canonicalNumberToken(v.value);
      }
      if (!isPlainObject(v)) throw OUTSIDE_DOMAIN;
      const keys = Object.keys(v).sort();
      // Small documents build each object by concatenation (fewest allocations); past a few thousand objects,
      // by join, which keeps large documents linear (many small rope strings make V8's GC superlinear).
      if (++objectsSerialized > JOIN_AFTER_OBJECTS) {
        const parts = new Array<string>(keys.length);
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i]!;
          const child = v[key];
          if (child === undefined || hasLoneSurrogate(key)) throw OUTSIDE_DOMAIN;
          parts[i] = JSON.stringify(key) + ':' + serialize(child, depth + 1, maxDepth);
        }
        return '{' + parts.join(',') + '}';
      }
      let out = '{';
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        const child = v[key];
        if (child === undefined || hasLoneSurrogate(key)) throw OUTSIDE_DOMAIN;
        if (i > 0) out += ',';
        out += JSON.stringify(key) + ':' + serialize(child, depth + 1, maxDepth);
      }
      return out + '}';
    }
    default:
      throw OUTSIDE_DOMAIN;
  }
}

type Frame = { value: unknown; depth: number; parent: Frame | undefined; key: string | number | undefined };

/**
 * Iteratively checks the §10.2 domain and returns a plain copy for RFC 8785 serialization (a LosslessNumber that
 * passes the token rule becomes its double, which the copy is only ever serialized from, never re-checked).
 * Iterative so an adversarially deep value is rejected rather than overflowing the stack (§12.3).
 */
export function toCanonicalDomain(value: unknown, maxDepth: number = DEFAULT_MAX_DEPTH): unknown {
  const rootHolder: { v: unknown } = { v: undefined };
  // Each work item copies `frame.value` into `into[slot]` (via put, so a "__proto__" member stays a member).
  const work: Array<{ frame: Frame; into: Record<string | number, unknown>; slot: string | number }> = [
    { frame: { value, depth: 0, parent: undefined, key: undefined }, into: rootHolder as Record<string, unknown>, slot: 'v' },
  ];
  const ancestors = new Set<object>();
  const exits: Array<{ obj: object; after: number }> = [];
  while (work.length > 0) {
    // Leave containers whose children are all processed (for cycle detection, which must allow shared DAG nodes).
    while (exits.length > 0 && work.length <= exits[exits.length - 1]!.after) ancestors.delete(exits.pop()!.obj);
    const { frame, into, slot } = work.pop()!;
    const v = frame.value;
    if (v === null || typeof v === 'boolean') {
      put(into, slot, v);
    } else if (typeof v === 'number') {
      const problem = nativeNumberProblem(v);
      if (problem !== null) throw new IdentityDomainError(numberProblemMessage(problem, Number.isFinite(v) ? JSON.stringify(v) : String(v), where(frame)));
      put(into, slot, v);
    } else if (typeof v === 'string') {
      if (hasLoneSurrogate(v)) {
        throw new IdentityDomainError(`lone Unicode surrogate in the string at ${where(frame)}; such strings are not representable in interoperable JSON — fix the producer's text encoding (§4.4, §10.2)`);
      }
      put(into, slot, v);
    } else if (isLosslessNumberLike(v)) {
      const problem = numberTokenProblem(v.value);
      if (problem !== null) throw new IdentityDomainError(numberProblemMessage(problem, v.value, where(frame)));
      // The token's double; a plain copy only ever reaches the canonicalizer after this check passed.
      put(into, slot, Number(v.value));
    } else if (Array.isArray(v) || isPlainObject(v)) {
      const depth = frame.depth + 1;
      if (depth > maxDepth) {
        throw new IdentityDomainError(`nesting deeper than ${maxDepth} levels at ${where(frame)}; flatten the structure or raise the configured depth bound (§12.3)`);
      }
      if (ancestors.has(v)) throw new IdentityDomainError(`cyclic reference at ${where(frame)}; a context must be a JSON tree (§4)`);
      ancestors.add(v);
      const afterLen = work.length;
      if (Array.isArray(v)) {
        const out: unknown[] = new Array(v.length);
        put(into, slot, out);
        for (let i = v.length - 1; i >= 0; i--) {
          if (!(i in v)) throw new IdentityDomainError(`hole in the array at ${where({ value: undefined, depth, parent: frame, key: i })}; arrays must be dense JSON arrays`);
          work.push({ frame: { value: v[i], depth, parent: frame, key: i }, into: out as unknown as Record<number, unknown>, slot: i });
        }
      } else {
        const out: Record<string, unknown> = {};
        put(into, slot, out);
        const keys = Object.keys(v);
        for (let k = keys.length - 1; k >= 0; k--) {
          const key = keys[k]!;
          if (hasLoneSurrogate(key)) {
            throw new IdentityDomainError(`lone Unicode surrogate in a member name at ${where(frame)}; such names are not representable in interoperable JSON (§4.4, §10.2)`);
          }
          work.push({ frame: { value: v[key], depth, parent: frame, key }, into: out, slot: key });
        }
      }
      exits.push({ obj: v, after: afterLen });
    } else {
      throw new IdentityDomainError(`${describeNonJson(v)} at ${where(frame)} is not a JSON value; contexts must hold JSON only (§4, §10.2)`);
    }
  }
  return rootHolder.v;
}

function put(into: Record<string | number, unknown>, slot: string | number, value: unknown): void {
  if (typeof slot === 'number') into[slot] = value;
  else setMember(into, slot, value);
}

function describeNonJson(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (typeof v === 'bigint') return `a bigint (${v.toString()}n)`;
  if (typeof v === 'function') return 'a function';
  if (typeof v === 'symbol') return 'a symbol';
  const ctor = (v as { constructor?: { name?: unknown } }).constructor?.name;
  return `an instance of ${typeof ctor === 'string' ? ctor : 'a non-plain object'}`;
}

/** A readable location like `target.items[3]` ('the root' for the value itself). */
function where(frame: Frame | undefined): string {
  const parts: Array<string | number> = [];
  for (let f = frame; f !== undefined && f.key !== undefined; f = f.parent) parts.push(f.key);
  if (parts.length === 0) return 'the root';
  parts.reverse();
  // Keep messages one paragraph long even for adversarially deep values.
  const shown = parts.length > 16 ? parts.slice(-16) : parts;
  let out = parts.length > 16 ? `…(${parts.length - 16} levels)…` : '';
  for (const p of shown) {
    if (typeof p === 'number') out += `[${p}]`;
    else if (/^[A-Za-z0-9_-]+$/.test(p)) out += out === '' ? p : `.${p}`;
    else out += `[${JSON.stringify(p)}]`;
  }
  return out;
}

/** True iff `s` contains a high surrogate not followed by a low one, or a low one not preceded by a high one. */
export function hasLoneSurrogate(s: string): boolean {
  // String.prototype.isWellFormed (ES2024) is native on every Node this package supports (engines: >=20.19).
  return !(s as unknown as { isWellFormed(): boolean }).isWellFormed();
}
