// Plain-JSON helpers shared by the host and the CTK.
import type { Json, JsonObject } from './types.js';

export type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object' | 'invalid';

/** A plain JSON object: not null, not an array, prototype Object.prototype or null (no class instances). */
export function isPlainObject(v: unknown): v is JsonObject {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** The JSON type of a value, shallowly; 'invalid' for anything JSON cannot carry (undefined, NaN, bigint, class instances…). */
export function jsonTypeOf(v: unknown): JsonType {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isFinite(v) ? 'number' : 'invalid';
    case 'string':
      return 'string';
    case 'object':
      if (Array.isArray(v)) return 'array';
      if (isLosslessNumberLike(v)) return 'number';
      return isPlainObject(v) ? 'object' : 'invalid';
    default:
      return 'invalid';
  }
}

/** Duck-typed lossless-json LosslessNumber: `{isLosslessNumber: true, value: "<digits>"}`. */
export interface LosslessNumberLike {
  isLosslessNumber: true;
  value: string;
}
export function isLosslessNumberLike(v: unknown): v is LosslessNumberLike {
  return (
    typeof v === 'object' &&
    v !== null &&
    (v as { isLosslessNumber?: unknown }).isLosslessNumber === true &&
    typeof (v as { value?: unknown }).value === 'string'
  );
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
  if (a === b) return true;
  const aNum = typeof a === 'number' || isLosslessNumberLike(a);
  const bNum = typeof b === 'number' || isLosslessNumberLike(b);
  if (aNum || bNum) {
    if (!aNum || !bNum) return false;
    if (typeof a === 'number' && typeof b === 'number') {
      // NaN equals NaN here so that an alias check reports the value-domain problem, not a phantom difference.
      return Number.isNaN(a) && Number.isNaN(b);
    }
    // A LosslessNumber is compared by its exact numeric value, never rounded through a double
    // (9007199254740993 ≠ 9007199254740992).
    return numericKey(a as number | LosslessNumberLike) === numericKey(b as number | LosslessNumberLike);
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bArr = b as unknown[];
    if (a.length !== bArr.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bArr[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  // Members whose value is undefined do not count (JSON has no such member); no intermediate arrays.
  let aCount = 0;
  for (const key of Object.keys(ao)) {
    const av = ao[key];
    if (av === undefined) continue;
    aCount++;
    if (!Object.prototype.hasOwnProperty.call(bo, key)) return false;
    if (!deepEqual(av, bo[key])) return false;
  }
  let bCount = 0;
  for (const key of Object.keys(bo)) if (bo[key] !== undefined) bCount++;
  return aCount === bCount;
}

/** Exact numeric identity of a number's text: "1", "1.0", "1e0" and 1 share one key; 0 and -0 too. */
export function numericKey(v: number | LosslessNumberLike): string {
  return numericKeyOfText(typeof v === 'number' ? String(v) : v.value);
}

/** numericKey of a number's JSON (or ECMAScript) text. */
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

/** UTF-8 byte length of a JS string (lone surrogates count as U+FFFD, 3 bytes, as Buffer does). */
export function utf8ByteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/**
 * Sets an own, enumerable member — also for the name "__proto__", which plain assignment would turn into a
 * prototype change (JSON.parse yields it as an ordinary member, and so must every copy).
 */
export function setMember(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}
