// Parsing JSON text without silently rounding numbers or losing their §10.2 token class (§4.4, §10.2).
import { parse, stringify } from 'lossless-json';
import { handOverNumber } from './number-domain.js';
import type { Json } from './types.js';

/**
 * Parses JSON text. A number becomes a plain JS number when its double prints back as the same value and
 * §10.2 judges the double as it judges the token (handOverNumber); any other number stays a lossless-json
 * LosslessNumber carrying its exact token, so 2^63−1 or a float token such as 1e20 reaches the §10.2 check
 * as written. Throws SyntaxError on malformed text (including duplicate member names with different values),
 * and RangeError on nesting deeper than the parser's recursion can follow.
 */
// Stryker disable next-line BlockStatement: CTK-side: the CTK's JSON parser (vectors, golden files, the stdio wire's reader); no host built on this code parses text; number-domain.test.ts and identity.test.ts parse through it
export function parseJsonText(text: string): unknown {
  return parse(text, null, handOverNumber);
}

/**
 * The JSON text of a JSON value with every exact number written as its own token (a LosslessNumber beyond the
 * double range as its digits, never as the wrapper object nor the nearest double): what a host hands on as text.
 */
export function jsonText(value: Json): string {
  return stringify(value) ?? 'null';
}
