// Lossless JSON for vector files: integers beyond 2^53 (and any number a double cannot
// hold exactly) stay as LosslessNumber objects so they reach a host byte-faithfully;
// every other number is a plain JS number. Comparison treats equal numeric text as equal.
import { LosslessNumber, isLosslessNumber, stringify } from 'lossless-json';
import { parseJsonText } from '../core/json-text.js';
import { handOverNumber } from '../core/number-domain.js';

export { LosslessNumber, isLosslessNumber };

/** Parse JSON text, keeping unsafe numbers as LosslessNumber. Throws JsonSyntaxError with line/column. */
export function parseLossless(text: string): unknown {
  const native = parseNatively(text);
  return native !== undefined ? native.value : parseLosslessOnly(text);
}

/** parseLossless through lossless-json alone (what it always did; src/ctk/json.test.ts holds the two together). */
export function parseLosslessOnly(text: string): unknown {
  try {
    return parseJsonText(text);
  } catch (error) {
    // The parser recurses per nesting level: text nested beyond the stack is not a syntax error.
    if (error instanceof RangeError) throw new JsonSyntaxError('nested too deeply to parse (thousands of levels); a vector never needs that');
    const message = error instanceof Error ? error.message : String(error);
    const m = /position (\d+)/.exec(message);
    const pos = m ? Number(m[1]) : undefined;
    const where = pos === undefined ? undefined : lineColumn(text, pos);
    throw new JsonSyntaxError(message.replace(/ at position \d+$/, ''), where?.line, where?.column);
  }
}

/**
 * A string token (with whether a colon follows it: a member name) or a number token. Applied to text JSON.parse
 * accepted (valid JSON), it finds every string and every number outside strings, exactly.
 */
const TOKEN = /"(?:[^"\\]|\\.)*"([ \t\n\r]*:)?|-?[0-9][-+.0-9eE]*/g;
/** Deeper than this, the lossless parser decides (its recursion may not follow what JSON.parse can). */
const NATIVE_MAX_DEPTH = 200;

/**
 * JSON.parse's value of `text` when it is the one parseJsonText would give, else undefined (then the lossless parser
 * runs, for its value or its error). The same value when the text is valid JSON (JSON.parse accepts it), every number
 * token hands over as the double JSON.parse reads (handOverNumber: no LosslessNumber anywhere), no object repeats a
 * member name (counted: member names in the text against the keys parsed; lossless-json rejects a repeated name with
 * another value), and it nests no deeper than NATIVE_MAX_DEPTH. Strings, keywords, whitespace and own __proto__
 * members read the same in both. JSON.parse is native: a cold process reads a vector file several times faster.
 */
function parseNatively(text: string): { value: unknown } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  let members = 0;
  for (const m of text.matchAll(TOKEN)) {
    const token = m[0];
    if (token.charCodeAt(0) === 34 /* " */) {
      if (m[1] !== undefined) members++;
    } else if (typeof handOverNumber(token) !== 'number') return undefined;
  }
  const keys = countKeys(value, 0);
  return keys === members ? { value } : undefined;
}

/** The number of object members in a parsed value; -1 beyond NATIVE_MAX_DEPTH. */
function countKeys(v: unknown, depth: number): number {
  if (v === null || typeof v !== 'object') return 0;
  if (depth > NATIVE_MAX_DEPTH) return -1;
  let n = 0;
  if (Array.isArray(v)) {
    for (const item of v) {
      const k = countKeys(item, depth + 1);
      if (k < 0) return -1;
      n += k;
    }
    return n;
  }
  for (const key of Object.keys(v)) {
    const k = countKeys((v as Record<string, unknown>)[key], depth + 1);
    if (k < 0) return -1;
    n += k + 1;
  }
  return n;
}

export class JsonSyntaxError extends Error {
  constructor(
    readonly detail: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(line === undefined ? detail : `line ${line}, column ${column}: ${detail}`);
    this.name = 'JsonSyntaxError';
  }
}

function lineColumn(text: string, pos: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < pos && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: pos - lineStart + 1 };
}

/** Serialize, writing LosslessNumbers as their exact text. */
export function stringifyLossless(value: unknown, indent?: number): string {
  return stringify(value, undefined, indent) ?? 'undefined';
}

/**
 * The value with LosslessNumbers as (possibly rounded) JS numbers: for schema validation and display only. Returns
 * the value itself when a copy would change nothing (no LosslessNumber, plain objects only), else a copy.
 */
export function toPlainJson(value: unknown): unknown {
  return needsPlainCopy(value) ? plainCopy(value) : value;
}

/** What plainCopy would not reproduce as is: a LosslessNumber, an object that is not a plain one, a __proto__ key. */
function needsPlainCopy(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (const item of value) if (needsPlainCopy(item)) return true;
    return false;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return true;
  const record = value as Record<string, unknown>;
  for (const k in record) {
    if (k === '__proto__' || needsPlainCopy(record[k])) return true;
  }
  return false;
}

function plainCopy(value: unknown): unknown {
  if (isLosslessNumber(value)) return Number((value as LosslessNumber).value);
  if (Array.isArray(value)) return value.map(plainCopy);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = plainCopy(v);
    return out;
  }
  return value;
}

/** Compact one-line rendering for failure messages. */
export function brief(value: unknown, max = 160): string {
  let text: string;
  try {
    text = value === undefined ? '(absent)' : stringifyLossless(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}
