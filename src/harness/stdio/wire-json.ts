// JSON on the stdio wire, lossless: numbers reach either side as the runner's vector parser hands them over
// (core json-text: a plain JS number where its double is exact and §10.2 judges it as the token, otherwise a
// LosslessNumber carrying the token), and a LosslessNumber is written back as its exact text.
import { stringify } from 'lossless-json';
import { parseJsonText } from '../../core/json-text.js';
import { isLosslessNumberLike } from '../../core/json.js';

/**
 * Could the text hold a number whose double is inexact, overflows or underflows? Only a numeral with 16+
 * significant digits (a run of 16 digits/points) or a 3-digit exponent can: up to 15 significant digits a
 * double prints back the same value. Conservative: digits inside strings also take the lossless path.
 */
const MAYBE_INEXACT_NUMBER = /[\d.]{16}|[eE][+-]?\d{3}/;

/** Parses one wire message; throws SyntaxError on malformed JSON. */
export function parseWire(text: string): unknown {
  if (MAYBE_INEXACT_NUMBER.test(text)) return parseJsonText(text);
  const value: unknown = JSON.parse(text);
  // Native parsing is exact here, but it loses the token class: a short float token such as 1e20 or 9.1e15 is
  // an integral double ≥ 2^53 that §10.2 accepts as a float (and any integer token that large has 16+ digits).
  return holdsUnsafeIntegralDouble(value) ? parseJsonText(text) : value;
}

/** Serializes one wire message on a single line (JSON escapes every newline inside strings). */
export function stringifyWire(value: unknown): string {
  const text = holdsLosslessNumber(value, 0) ? stringify(value) : JSON.stringify(value);
  if (text === undefined) throw new TypeError('value is not JSON-serializable');
  return text;
}

/** Does an integral double beyond ±(2^53−1) occur anywhere in a natively parsed value? Iterative (any depth). */
function holdsUnsafeIntegralDouble(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'number') {
      if (Number.isInteger(v) && !Number.isSafeInteger(v)) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (typeof v === 'object' && v !== null) {
      for (const key in v) stack.push((v as Record<string, unknown>)[key]);
    }
  }
  return false;
}

/** Does a LosslessNumber occur anywhere (native JSON.stringify would write it as an object)? Deep values take the lossless path. */
function holdsLosslessNumber(v: unknown, depth: number): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (depth > 256 || isLosslessNumberLike(v)) return true;
  if (Array.isArray(v)) {
    for (const item of v) if (holdsLosslessNumber(item, depth + 1)) return true;
    return false;
  }
  for (const key in v) if (holdsLosslessNumber((v as Record<string, unknown>)[key], depth + 1)) return true;
  return false;
}
