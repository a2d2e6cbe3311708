// JSON on the stdio wire, lossless: integers a double cannot hold exactly stay LosslessNumber
// objects (written back as their exact text), every other number is a plain JS number.
// Same number policy as the runner's vector parser, so a vector's 2^63 reaches the host as written.
import { LosslessNumber, isSafeNumber, parse, stringify } from 'lossless-json';

/** Parses one wire message; throws SyntaxError (lossless-json's message) on malformed JSON. */
export function parseWire(text: string): unknown {
  return parse(text, null, (value: string) => (isSafeNumber(value) ? Number(value) : new LosslessNumber(value)));
}

/** Serializes one wire message on a single line (JSON escapes every newline inside strings). */
export function stringifyWire(value: unknown): string {
  const text = stringify(value);
  if (text === undefined) throw new TypeError('value is not JSON-serializable');
  return text;
}
