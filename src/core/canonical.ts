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
  // Stryker disable next-line LogicalOperator: maxDepth is a library option no host passes (a host bounds a context's depth in validateContext's scan first, at the same 128); canonical.test.ts 'a configured bound' fails without it
  const maxDepth = opts.maxDepth ?? DEFAULT_MAX_DEPTH;
  const outer = walk; // a getter in the value may itself canonicalize: each call keeps its own walk state
  try {
    // Fastest path: a key-sorted view of the value (a copy only where an object's own order is not canonical),
    // serialized by one native JSON.stringify, so the output is one flat string built in linear time.
    walk = { maxDepth, deepest: 0, memo: new Map() };
    return JSON.stringify(canonicalOrder(value, 0));
  } catch (error) {
    // Stryker disable next-line BooleanLiteral: equivalent: besides the two symbols only a RangeError (a text too long for one string) or a getter's own error gets here, and a host's contexts are plain data within the bounds
    if (error !== OUTSIDE_DOMAIN && error !== NOT_NATIVE_ORDER && !(error instanceof RangeError)) throw error;
    if (error === NOT_NATIVE_ORDER) {
      // An object has a member name starting with a digit: JSON.stringify would put array-index names first
      // (in numeric order), RFC 8785 sorts every name by UTF-16 code units, so serialize by hand.
      try {
        objectsSerialized = 0;
        // Stryker disable BlockStatement: the inner catch: equivalent: an empty catch walks on to the rejection walk, as this one does for the serializer's own rejection, and a getter's error is thrown again by that walk; the finally: restores the walk state when a getter canonicalizes in the middle of a walk; a host's contexts hold no getters (projected to plain JSON first), so canonicalize never nests in host use (canonical-crosscheck.test.ts 'a getter that canonicalizes while the value is being canonicalized leaves the outer call intact')
        return serialize(value, 0, maxDepth);
      } catch (error2) {
        // Stryker disable next-line BooleanLiteral,ConditionalExpression,EqualityOperator,LogicalOperator: the serializer's rejection: rethrowing its symbol instead of walking on is still a rejection (a host records context_invalid either way, vectors AH-CTK-701/702), and canonical.test.ts 'each rejection names its kind and its location' (the digit-member cases) requires the located IdentityDomainError; not rethrowing another error changes nothing for plain data
        if (error2 !== OUTSIDE_DOMAIN && !(error2 instanceof RangeError)) throw error2;
      }
    }
  } finally {
    // Stryker restore BlockStatement
    walk = outer;
  }
  // Only on rejection: the iterative walk names the offending location (and is stack-safe). It rejects exactly what
  // the walks above reject, so it throws here; the throw after it covers the one thing it does not check, a text
  // too long for one string (RangeError above).
  toCanonicalDomain(value, maxDepth);
  // Stryker disable next-line StringLiteral: diagnostic text; only a value whose canonical text is too long for one string (hundreds of MB) reaches this throw, and the error stays an IdentityDomainError either way
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
      // Stryker equivalent next-line ConditionalExpression `false` @11-30: a lone surrogate never reaches the identity in a host (validateContext rejects it first, §4.4); canonical.test.ts 'a lone surrogate in a string' kills it
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
      // Stryker equivalent next-line ConditionalExpression `false` @11-30: the depth bound: a host's contexts are bounded by validateContext's scan first, at the same 128 (§12.3); canonical.test.ts 'a configured bound' and 'nesting past the bound' kill it
      // Stryker equivalent next-line EqualityOperator `depth > w.maxDepth` @11-30: the depth bound: a host's contexts are bounded by validateContext's scan first, at the same 128 (§12.3); canonical.test.ts 'a configured bound' and 'nesting past the bound' kill it
      if (depth >= w.maxDepth) throw OUTSIDE_DOMAIN;
      // Stryker disable next-line ConditionalExpression,EqualityOperator: memo bookkeeping: the memo only decides whether a subtree seen twice (target and the field it aliases, §4.3) is walked again, which writes the same bytes; the height it records matters only for a context past the depth bound, which validateContext rejects first; canonical-crosscheck.test.ts 'a subtree shared by reference is held to the depth bound at each of its places' checks it
      if (depth > w.deepest) w.deepest = depth;
      // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator: equivalent: which depths use the memo only decides whether a subtree seen twice is walked again, which writes the same bytes (canonical-crosscheck.test.ts 'a subtree shared by reference is held to the depth bound at each of its places')
      if (depth !== 0 && depth <= MEMO_DEPTH) return memoized(v, depth, w); // the root recurs only in a cycle
      return orderContainer(v, depth);
    }
    // Stryker disable next-line ConditionalExpression: no host context holds a function, bigint, symbol or undefined (projected to JSON first, §10.3); canonical.test.ts 'a function item' kills it
    default:
      throw OUTSIDE_DOMAIN;
  }
}

function memoized(v: object, depth: number, w: NonNullable<typeof walk>): unknown {
  const seen = w.memo.get(v);
  // Stryker disable next-line ArithmeticOperator,BlockStatement: memo bookkeeping: reusing or re-walking a subtree seen twice writes the same bytes; the height test matters only for a context past the depth bound, which validateContext rejects first; canonical-crosscheck.test.ts 'a subtree shared by reference is held to the depth bound at each of its places' checks it
  // Stryker equivalent next-line ConditionalExpression `false` @7-61: memo bookkeeping: reusing or re-walking a subtree seen twice writes the same bytes; the height test matters only for a context past the depth bound, which validateContext rejects first; canonical-crosscheck.test.ts 'a subtree shared by reference is held to the depth bound at each of its places' checks it
  // Stryker equivalent next-line ConditionalExpression `true` @29-61: memo bookkeeping: reusing or re-walking a subtree seen twice writes the same bytes; the height test matters only for a context past the depth bound, which validateContext rejects first; canonical-crosscheck.test.ts 'a subtree shared by reference is held to the depth bound at each of its places' checks it
  // Stryker equivalent next-line EqualityOperator `depth + seen.height <= w.maxDepth` @29-61: memo bookkeeping: reusing or re-walking a subtree seen twice writes the same bytes; the height test matters only for a context past the depth bound, which validateContext rejects first; canonical-crosscheck.test.ts 'a subtree shared by reference is held to the depth bound at each of its places' checks it
  // Stryker equivalent next-line EqualityOperator `depth + seen.height >= w.maxDepth` @29-61: memo bookkeeping: reusing or re-walking a subtree seen twice writes the same bytes; the height test matters only for a context past the depth bound, which validateContext rejects first; canonical-crosscheck.test.ts 'a subtree shared by reference is held to the depth bound at each of its places' checks it
  if (seen !== undefined && depth + seen.height < w.maxDepth) {
    // Stryker disable next-line ArithmeticOperator,ConditionalExpression,EqualityOperator: memo bookkeeping: the deepest depth reached matters only for a context past the depth bound, which validateContext rejects first; canonical-crosscheck.test.ts 'a subtree shared by reference is held to the depth bound at each of its places' checks it
    if (depth + seen.height > w.deepest) w.deepest = depth + seen.height;
    return seen.ordered;
  }
  const saved = w.deepest;
  w.deepest = depth;
  const ordered = orderContainer(v, depth);
  // Stryker disable next-line ArithmeticOperator,ObjectLiteral: memo bookkeeping: the height recorded matters only for a context past the depth bound, which validateContext rejects first; canonical-crosscheck.test.ts 'a subtree shared by reference is held to the depth bound at each of its places' checks it
  w.memo.set(v, { ordered, height: w.deepest - depth });
  // Stryker disable next-line ConditionalExpression,EqualityOperator: memo bookkeeping: the deepest depth reached matters only for a context past the depth bound, which validateContext rejects first; canonical-crosscheck.test.ts 'a subtree shared by reference is held to the depth bound at each of its places' checks it
  if (saved > w.deepest) w.deepest = saved;
  return ordered;
}

/** The member names of the last object ordered, and their RFC 8785 order (a one-entry cache; names are immutable strings). */
// Stryker disable next-line ArrayDeclaration: equivalent: the name cache's initial state is read only for a process's first object, and only if that object has exactly these names
let lastNames: readonly string[] = [];
// Stryker disable next-line ArrayDeclaration: equivalent in practice: the name cache's initial state is read only if a process's first object has no members
let lastSorted: string[] = [];
// Stryker disable next-line BooleanLiteral: equivalent: the initial flag only makes a process's first, memberless object be copied, which writes the same bytes
let lastInOrder = true;

/**
 * The names in RFC 8785 order (§3.2.3: by UTF-16 code units, which is what `<` on strings compares), as a new
 * array. Objects have few members: insertion sort, cheaper there than Array.prototype.sort; the default sort beyond.
 */
function sortedNames(names: readonly string[]): string[] {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: insertion sort and Array.prototype.sort give the same order (UTF-16 code units); the threshold only picks the faster one (vector AH-CTK-704 reaches the second)
  if (names.length > 16) return [...names].sort();
  // Stryker disable next-line MethodExpression: equivalent: sorting the fresh Object.keys array in place instead of a copy leaves only the name cache holding a sorted list, which then misses and sorts again
  const out = names.slice();
  for (let i = 1; i < out.length; i++) {
    const name = out[i]!;
    let j = i - 1;
    // Stryker equivalent next-line ConditionalExpression `true` @12-18: equivalent: out[-1] is undefined, so the j >= 0 test is implied, and member names are never equal
    // Stryker equivalent next-line EqualityOperator `out[j]! >= name` @22-36: equivalent: out[-1] is undefined, so the j >= 0 test is implied, and member names are never equal
    while (j >= 0 && out[j]! > name) {
      out[j + 1] = out[j]!;
      j--;
    }
    out[j + 1] = name;
  }
  return out;
}

// Stryker disable next-line BlockStatement: equivalent: the one-entry cache of the last object's member names only saves sorting them again; a mutant that never hits it sorts anew and writes the same bytes
function sameNames(a: readonly string[], b: readonly string[]): boolean {
  // Stryker equivalent next-line ConditionalExpression `true` @7-28: equivalent: the one-entry cache of the last object's member names only saves sorting them again; a mutant that never hits it sorts anew and writes the same bytes
  if (a.length !== b.length) return false;
  // Stryker equivalent next-line ConditionalExpression `true` @42-55: equivalent: the one-entry cache of the last object's member names only saves sorting them again; a mutant that never hits it sorts anew (and one past the end compares undefined with undefined)
  // Stryker equivalent next-line EqualityOperator `i <= a.length` @19-31: equivalent: the one-entry cache of the last object's member names only saves sorting them again; a mutant that never hits it sorts anew (and one past the end compares undefined with undefined)
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  // Stryker disable next-line BooleanLiteral: equivalent: the one-entry cache of the last object's member names only saves sorting them again; a mutant that never hits it sorts anew and writes the same bytes
  return true;
}

function orderContainer(v: object, depth: number): unknown {
  if (Array.isArray(v)) {
    // A plain array whose items all stay as they are is shared; otherwise copied from the first changed item.
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: copying an array or sharing it writes the same bytes (JSON.stringify writes an Array subclass as an array)
    let out: unknown[] | undefined = Object.getPrototypeOf(v) === Array.prototype ? undefined : [];
    for (let i = 0; i < v.length; i++) {
      // Stryker equivalent next-line ConditionalExpression `false` @11-20: equivalent: a hole reads as undefined, which the recursive call rejects too; a host's contexts hold no holes (canonical.test.ts 'a hole')
      if (!(i in v)) throw OUTSIDE_DOMAIN;
      const item: unknown = v[i];
      // Stryker disable next-line ArithmeticOperator: the depth bound: a host's contexts are bounded by validateContext's scan first, at the same 128 (§12.3); canonical.test.ts 'nesting past the bound' kills it
      const ordered = canonicalOrder(item, depth + 1);
      // Stryker equivalent next-line ConditionalExpression `true` @32-48: equivalent: copying an array whose items stay as they are writes the same bytes
      if (out === undefined && ordered !== item) out = v.slice(0, i);
      if (out !== undefined) out.push(ordered);
    }
    return out ?? v;
  }
  if (isLosslessNumberLike(v)) {
    if (numberTokenProblem(v.value) !== null) throw OUTSIDE_DOMAIN;
    return Number(v.value);
  }
  // Stryker equivalent next-line ConditionalExpression `false` @7-24: a host's contexts hold no class instances (they are deep-cloned JSON); canonical.test.ts 'a class instance' kills it
  if (!isPlainObject(v)) throw OUTSIDE_DOMAIN;
  const own = Object.keys(v);
  let keys: string[];
  let inOrder: boolean;
  // Stryker equivalent next-line ConditionalExpression `false` @7-32: equivalent: the one-entry cache of the last object's member names only saves sorting them again; a mutant that never hits it sorts anew and writes the same bytes
  if (sameNames(own, lastNames)) {
    // Objects in a document mostly repeat their neighbour's member names in the same order (rows of a table).
    keys = lastSorted;
    inOrder = lastInOrder;
  } else {
    // Stryker disable next-line BooleanLiteral: equivalent: starting from not-in-order sorts names already in order, which changes nothing
    inOrder = true;
    for (let i = 0; i < own.length; i++) {
      const c = own[i]!.charCodeAt(0);
      if (c >= 0x30 && c <= 0x39) throw NOT_NATIVE_ORDER;
      // Stryker disable next-line LogicalOperator: equivalent: taking names for out of order sorts names already in order, which changes nothing, and names are never equal
      // Stryker equivalent next-line ConditionalExpression `true` @11-41: equivalent: taking names for out of order sorts names already in order, which changes nothing, and names are never equal
      // Stryker equivalent next-line ConditionalExpression `true` @11-16: equivalent: taking names for out of order sorts names already in order, which changes nothing, and names are never equal
      // Stryker equivalent next-line ConditionalExpression `true` @20-41: equivalent: taking names for out of order sorts names already in order, which changes nothing, and names are never equal
      // Stryker equivalent next-line EqualityOperator `i >= 0` @11-16: equivalent: taking names for out of order sorts names already in order, which changes nothing, and names are never equal
      // Stryker equivalent next-line EqualityOperator `own[i - 1]! >= own[i]!` @20-41: equivalent: taking names for out of order sorts names already in order, which changes nothing, and names are never equal
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
    // Stryker disable next-line LogicalOperator: an undefined member is rejected by the recursive call too, and a lone-surrogate member name never reaches the identity in a host (validateContext rejects it first, §4.4); canonical.test.ts 'a lone surrogate in a member name' kills the rest
    // Stryker equivalent next-line ConditionalExpression `false` @9-53: an undefined member is rejected by the recursive call too, and a lone-surrogate member name never reaches the identity in a host (validateContext rejects it first, §4.4); canonical.test.ts 'a lone surrogate in a member name' kills the rest
    // Stryker equivalent next-line ConditionalExpression `false` @9-28: an undefined member is rejected by the recursive call too, and a lone-surrogate member name never reaches the identity in a host (validateContext rejects it first, §4.4); canonical.test.ts 'a lone surrogate in a member name' kills the rest
    if (child === undefined || hasLoneSurrogate(key)) throw OUTSIDE_DOMAIN;
    // Stryker disable next-line ArithmeticOperator: the depth bound: a host's contexts are bounded by validateContext's scan first, at the same 128 (§12.3); canonical.test.ts 'a configured bound' kills it
    const ordered = canonicalOrder(child, depth + 1);
    // Stryker equivalent next-line ConditionalExpression `true` @9-26: equivalent: copying an object whose members stay as they are writes the same bytes
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
      // Stryker equivalent next-line ConditionalExpression `false` @11-30: a lone surrogate never reaches the identity in a host (validateContext rejects it first, §4.4); canonical.test.ts 'a lone surrogate behind a digit member name' kills it
      if (hasLoneSurrogate(v)) throw OUTSIDE_DOMAIN;
      return JSON.stringify(v);
    case 'number':
      if (!isNativeNumberInDomain(v)) throw OUTSIDE_DOMAIN;
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object': {
      if (v === null) return 'null';
      // Stryker equivalent next-line ConditionalExpression `false` @11-28: the depth bound: a host's contexts are bounded by validateContext's scan first, at the same 128 (§12.3); canonical.test.ts 'the depth bound behind a digit member name' kills it
      // Stryker equivalent next-line EqualityOperator `depth > maxDepth` @11-28: the depth bound: a host's contexts are bounded by validateContext's scan first, at the same 128 (§12.3); canonical.test.ts 'the depth bound behind a digit member name' kills it
      if (depth >= maxDepth) throw OUTSIDE_DOMAIN;
      if (Array.isArray(v)) {
        // Long arrays join their parts (linear); short ones concatenate (fewer allocations).
        // Stryker disable next-line BlockStatement,ConditionalExpression,EqualityOperator: equivalent: a long array joins its parts, a short one concatenates them, and both write the same bytes (vector AH-CTK-700 reaches both)
        if (v.length > 16) {
          // Stryker disable next-line ArrayDeclaration: equivalent: preallocating the parts array or not writes the same bytes
          const parts = new Array<string>(v.length);
          for (let i = 0; i < v.length; i++) {
            // Stryker equivalent next-line ConditionalExpression `false` @17-26: equivalent: a hole is read as undefined, which the recursive call rejects too; a host's contexts hold no holes (canonical.test.ts 'a hole in a long array behind a digit member name')
            if (!(i in v)) throw OUTSIDE_DOMAIN;
            // Stryker disable next-line ArithmeticOperator: the depth bound: a host's contexts are bounded by validateContext's scan first, at the same 128 (§12.3); canonical.test.ts 'the depth bound in a long array behind a digit member name' kills it
            parts[i] = serialize(v[i], depth + 1, maxDepth);
          }
          return '[' + parts.join(',') + ']';
        }
        let out = '[';
        for (let i = 0; i < v.length; i++) {
          if (i > 0) out += ',';
          // Stryker equivalent next-line ConditionalExpression `false` @15-24: equivalent: a hole is read as undefined, which the recursive call rejects too; a host's contexts hold no holes (canonical.test.ts 'a hole behind a digit member name')
          if (!(i in v)) throw OUTSIDE_DOMAIN;
          // Stryker disable next-line ArithmeticOperator: the depth bound: a host's contexts are bounded by validateContext's scan first, at the same 128 (§12.3); canonical.test.ts 'the depth bound in arrays behind a digit member name' kills it
          out += serialize(v[i], depth + 1, maxDepth);
        }
        return out + ']';
      }
      if (isLosslessNumberLike(v)) {
        if (numberTokenProblem(v.value) !== null) throw OUTSIDE_DOMAIN;
        return canonicalNumberToken(v.value);
      }
      // Stryker equivalent next-line ConditionalExpression `false` @11-28: a host's contexts hold no class instances (they are deep-cloned JSON); canonical.test.ts 'a class instance behind a digit member name' kills it
      if (!isPlainObject(v)) throw OUTSIDE_DOMAIN;
      const keys = Object.keys(v).sort();
      // Small documents build each object by concatenation (fewest allocations); past a few thousand objects,
      // by join, which keeps large documents linear (many small rope strings make V8's GC superlinear).
      // Stryker disable next-line BlockStatement,ConditionalExpression,EqualityOperator,UpdateOperator: equivalent: past 2,048 objects an object joins its members, before it concatenates them, and both write the same bytes (vector AH-CTK-700 reaches both)
      if (++objectsSerialized > JOIN_AFTER_OBJECTS) {
        // Stryker disable next-line ArrayDeclaration: equivalent: preallocating the parts array or not writes the same bytes
        const parts = new Array<string>(keys.length);
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i]!;
          const child = v[key];
          // Stryker disable next-line LogicalOperator: an undefined member is rejected by the recursive call too, and a lone-surrogate member name never reaches the identity in a host (validateContext rejects it first, §4.4); canonical.test.ts 'a lone-surrogate member name behind a digit member name' kills the rest
          // Stryker equivalent next-line ConditionalExpression `false` @15-59: an undefined member is rejected by the recursive call too, and a lone-surrogate member name never reaches the identity in a host (validateContext rejects it first, §4.4); canonical.test.ts 'a lone-surrogate member name behind a digit member name' kills the rest
          // Stryker equivalent next-line ConditionalExpression `false` @15-34: an undefined member is rejected by the recursive call too, and a lone-surrogate member name never reaches the identity in a host (validateContext rejects it first, §4.4); canonical.test.ts 'a lone-surrogate member name behind a digit member name' kills the rest
          if (child === undefined || hasLoneSurrogate(key)) throw OUTSIDE_DOMAIN;
          // Stryker disable next-line ArithmeticOperator: the depth bound: a host's contexts are bounded by validateContext's scan first, at the same 128 (§12.3); canonical.test.ts 'the depth bound behind a digit member name' kills it
          parts[i] = JSON.stringify(key) + ':' + serialize(child, depth + 1, maxDepth);
        }
        return '{' + parts.join(',') + '}';
      }
      let out = '{';
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        const child = v[key];
        // Stryker disable next-line LogicalOperator: an undefined member is rejected by the recursive call too, and a lone-surrogate member name never reaches the identity in a host (validateContext rejects it first, §4.4); canonical.test.ts 'a lone-surrogate member name behind a digit member name' kills the rest
        // Stryker equivalent next-line ConditionalExpression `false` @13-57: an undefined member is rejected by the recursive call too, and a lone-surrogate member name never reaches the identity in a host (validateContext rejects it first, §4.4); canonical.test.ts 'a lone-surrogate member name behind a digit member name' kills the rest
        // Stryker equivalent next-line ConditionalExpression `false` @13-32: an undefined member is rejected by the recursive call too, and a lone-surrogate member name never reaches the identity in a host (validateContext rejects it first, §4.4); canonical.test.ts 'a lone-surrogate member name behind a digit member name' kills the rest
        if (child === undefined || hasLoneSurrogate(key)) throw OUTSIDE_DOMAIN;
        if (i > 0) out += ',';
        // Stryker disable next-line ArithmeticOperator: the depth bound: a host's contexts are bounded by validateContext's scan first, at the same 128 (§12.3); canonical.test.ts 'the depth bound behind a digit member name' kills it
        out += JSON.stringify(key) + ':' + serialize(child, depth + 1, maxDepth);
      }
      return out + '}';
    }
    // Stryker disable next-line ConditionalExpression: no host context holds a function, bigint, symbol or undefined item (they are projected to JSON first, §10.3); canonical.test.ts 'a function item behind a digit member name' kills it
    default:
      throw OUTSIDE_DOMAIN;
  }
}

// Stryker disable all: diagnostic only: this walk runs after a faster walk rejected the value, and canonicalize throws after it whatever it returns, so a mutant here changes only which location and wording the error names (or the error's type); a host never shows that text (emitter.ts providerFailureDetail writes a payload-free message of its own, §6.3). canonical.test.ts ('each rejection names its kind and its location', 'cycles, shared subtrees and depth, located', 'toCanonicalDomain copies what it accepts…') pins it
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

// Stryker restore all

/** True iff `s` contains a high surrogate not followed by a low one, or a low one not preceded by a high one. */
export function hasLoneSurrogate(s: string): boolean {
  // String.prototype.isWellFormed (ES2024) is native on every Node this package supports (engines: >=20.19).
  return !(s as unknown as { isWellFormed(): boolean }).isWellFormed();
}
