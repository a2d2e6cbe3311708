// Parsing JSON text without silently rounding numbers (§4.4, §10.2: reject, never normalize).
import { LosslessNumber, isSafeNumber, parse } from 'lossless-json';

/**
 * Parses JSON text. Numbers a double holds exactly become plain numbers; any other number stays a
 * lossless-json LosslessNumber carrying its exact text, so an integer beyond ±(2^53−1) reaches the
 * §10.2 domain check as written instead of pre-rounded. Throws SyntaxError on malformed text
 * (including duplicate member names with different values), and RangeError on nesting deeper than
 * the parser's recursion can follow.
 */
export function parseJsonText(text: string): unknown {
  return parse(text, null, (value: string) => (isSafeNumber(value) ? Number(value) : new LosslessNumber(value)));
}
