// JSON on the stdio wire, lossless: integers a double cannot hold exactly stay LosslessNumber
// objects (written back as their exact text), every other number is a plain JS number.
// Same number policy as the runner's vector parser (core json-text), so a vector's 2^63 reaches the host as written.
import { stringify } from 'lossless-json';
import { parseJsonText } from '../../core/json-text.js';

/** Parses one wire message; throws SyntaxError (lossless-json's message) on malformed JSON. */
export const parseWire: (text: string) => unknown = parseJsonText;

/** Serializes one wire message on a single line (JSON escapes every newline inside strings). */
export function stringifyWire(value: unknown): string {
  const text = stringify(value);
  if (text === undefined) throw new TypeError('value is not JSON-serializable');
  return text;
}
