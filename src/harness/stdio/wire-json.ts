// JSON on the stdio wire, lossless: integers a double cannot hold exactly stay LosslessNumber
// objects (written back as their exact text), every other number is a plain JS number.
// Same number policy as the runner's vector parser (core json-text), so a vector's 2^63 reaches the host as written.
import { stringify } from 'lossless-json';
import { parseJsonText } from '../../core/json-text.js';
import { isLosslessNumberLike } from '../../core/json.js';

/**
 * Could the text hold a number a double cannot carry exactly? Only a numeral with 16+ digits (or a 3-digit
 * exponent) can; any other text parses identically with the native JSON.parse, which is several times faster.
 * Conservative: digits inside strings also send a message down the lossless path, which is merely slower.
 */
const MAYBE_INEXACT_NUMBER = /[\d.]{16}|[eE][+-]?\d{3}/;

/** Parses one wire message; throws SyntaxError on malformed JSON. */
export function parseWire(text: string): unknown {
  return MAYBE_INEXACT_NUMBER.test(text) ? parseJsonText(text) : JSON.parse(text);
}

/** Serializes one wire message on a single line (JSON escapes every newline inside strings). */
export function stringifyWire(value: unknown): string {
  const text = holdsLosslessNumber(value, 0) ? stringify(value) : JSON.stringify(value);
  if (text === undefined) throw new TypeError('value is not JSON-serializable');
  return text;
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
