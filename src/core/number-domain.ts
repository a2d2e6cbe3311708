// §10.2 number domain, decided on the JSON number *token* (the text a number is written as):
// - an integer token (no fraction, no exponent) is in domain iff |n| ≤ 2^53−1 ("an integral number outside
//   ±(2^53−1)": canonicalization would round it);
// - a token with a fraction or an exponent is a float: in domain iff its double is finite, and RFC 8785 writes
//   it as ECMAScript Number::toString of that double (1e21 → "1e+21", 1.0 → "1", -0 → "0").
// A native JS number has no token of its own: its token is what JSON.stringify writes, so an integral double
// with 2^53 ≤ |x| < 1e21 (written as digits) is rejected, and from 1e21 up (written in exponent form) accepted.
import { LosslessNumber } from 'lossless-json';
import { numericKeyOfText } from './json.js';

/** Why a number is outside the §10.2 domain. */
export type NumberProblem = 'non-finite' | 'unsafe-integer' | 'not-a-json-number';

// Stryker equivalent next-line Regex `/-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/` @21-68: equivalent for a host: every LosslessNumber a host meets was made by a JSON parser from a number token, so the full-token test never fails there (and, a module-level constant, a static mutant of it changes the CTK's parser alike); number-domain.test.ts ('+1', '01') kills it
// Stryker equivalent next-line Regex `/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/` @21-68: equivalent for a host: every LosslessNumber a host meets was made by a JSON parser from a number token, so the full-token test never fails there (and, a module-level constant, a static mutant of it changes the CTK's parser alike); number-domain.test.ts ('+1', '01') kills it
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const INTEGER_TOKEN = /^-?(?:0|[1-9]\d*)$/;
/** ECMAScript Number::toString switches to exponent form at 1e21: below it, an integral double prints as digits. */
const EXPONENT_FORM_FROM = 1e21;

/** An integer token: a JSON number written with neither a fraction nor an exponent. */
export function isIntegerToken(text: string): boolean {
  return INTEGER_TOKEN.test(text);
}

/** The §10.2 verdict on a number token: null when in domain. */
export function numberTokenProblem(text: string): NumberProblem | null {
  if (isIntegerToken(text)) {
    // More than 16 digits is ≥ 10^16 > 2^53; up to 16 digits Number() rounds monotonically, and 2^53−1 is exact.
    // Stryker disable next-line ArithmeticOperator,ConditionalExpression,EqualityOperator: equivalent for a host: the integer tokens it meets lossless are the ones no double holds (a safe integer is handed over as a number), 16 digits or more with or without a sign, so the sign's digit decides nothing; number-domain.test.ts pins the token rule
    const digits = text.length - (text.charCodeAt(0) === 45 ? 1 : 0);
    // Stryker disable next-line StringLiteral: equivalent for a host: the integer tokens it meets lossless are the ones no double holds, beyond 2^53 and of 16 digits or more, so the edges decide nothing, and any problem name still rejects; number-domain.test.ts pins the token rule
    return digits > 16 || Math.abs(Number(text)) > Number.MAX_SAFE_INTEGER ? 'unsafe-integer' : null;
  }
  if (!JSON_NUMBER.test(text)) return 'not-a-json-number';
  return Number.isFinite(Number(text)) ? null : 'non-finite';
}

/** The §10.2 verdict on a native number, whose token is what JSON.stringify writes: null when in domain. */
// Stryker disable next-line BlockStatement: diagnostic: which problem a location message names (the verdict, context_invalid, is the same), and a non-finite native never reaches an identity (validateContext rejects it first, §4.4); canonical.test.ts pins the kinds
export function nativeNumberProblem(n: number): NumberProblem | null {
  // Stryker disable next-line BooleanLiteral,ConditionalExpression,StringLiteral: diagnostic: which problem a location message names (the verdict, context_invalid, is the same), and a non-finite native never reaches an identity (validateContext rejects it first, §4.4); canonical.test.ts pins the kinds
  if (!Number.isFinite(n)) return 'non-finite';
  // Stryker disable next-line StringLiteral: diagnostic: which problem a location message names (the verdict, context_invalid, is the same), and a non-finite native never reaches an identity (validateContext rejects it first, §4.4); canonical.test.ts pins the kinds
  return isNativeNumberInDomain(n) ? null : 'unsafe-integer';
}

/** Fast form of nativeNumberProblem(n) === null, for the canonicalizer's hot path. */
export function isNativeNumberInDomain(n: number): boolean {
  return Number.isFinite(n) && (Number.isSafeInteger(n) || !Number.isInteger(n) || Math.abs(n) >= EXPONENT_FORM_FROM);
}

/** RFC 8785 text of an in-domain token: Number::toString of its double (integer tokens in range print as written). */
export function canonicalNumberToken(text: string): string {
  return JSON.stringify(Number(text));
}

/** A remediation sentence for an out-of-domain number at a location (§10.2 "a remediation-detail message"). */
// Stryker disable next-line BlockStatement: diagnostic text a host never shows (it writes a payload-free message of its own, §6.3); canonical.test.ts 'each rejection names its kind and its location' pins each message
export function numberProblemMessage(problem: NumberProblem, literal: string, at: string): string {
  switch (problem) {
    // Stryker disable next-line ConditionalExpression,StringLiteral: diagnostic text a host never shows (it writes a payload-free message of its own, §6.3); canonical.test.ts 'each rejection names its kind and its location' pins each message
    case 'unsafe-integer':
      // Stryker disable next-line StringLiteral: diagnostic text a host never shows (it writes a payload-free message of its own, §6.3); canonical.test.ts 'each rejection names its kind and its location' pins each message
      return `integer ${literal} at ${at} exceeds ±(2^53−1); string-encode 64-bit identifiers, see §4.4 (canonicalization would silently round it, §10.2)`;
    // Stryker disable next-line ConditionalExpression,StringLiteral: diagnostic text a host never shows (it writes a payload-free message of its own, §6.3); canonical.test.ts 'each rejection names its kind and its location' pins each message
    case 'non-finite':
      // Stryker disable next-line StringLiteral: diagnostic text a host never shows (it writes a payload-free message of its own, §6.3); canonical.test.ts 'each rejection names its kind and its location' pins each message
      return `non-finite number ${literal} at ${at}; NaN and ±Infinity are not representable in interoperable JSON — send null or a string instead (§4.4, §10.2)`;
    // Stryker disable next-line ConditionalExpression,StringLiteral: diagnostic text a host never shows (it writes a payload-free message of its own, §6.3); canonical.test.ts 'each rejection names its kind and its location' pins each message
    case 'not-a-json-number':
      // Stryker disable next-line StringLiteral: diagnostic text a host never shows (it writes a payload-free message of its own, §6.3); canonical.test.ts 'each rejection names its kind and its location' pins each message
      return `${JSON.stringify(literal)} at ${at} is not a JSON number token; contexts must hold JSON only (§4, §10.2)`;
  }
}

/**
 * How a parsed number token is handed to JavaScript code (the runner, in-process harnesses, the stdio wire's
 * reader): a plain number when JSON.stringify of its double writes the same numeric value AND §10.2 judges
 * both texts alike; otherwise a LosslessNumber carrying the token. So a plain number is always exact, and
 * serializing it (the stdio wire, records, identities) never changes the value or the domain verdict.
 * Plain: 0.1, 1.0, 1E2, -0, 1e21, 2^53−1, 2^53 (= 9007199254740992, printed back exactly).
 * Lossless: 9007199254740993, 2^63−1, 1.00000000000000000001, 1e400, 1e-400, an integer token of 1e21 or
 * more (a double would print it in exponent form, which §10.2 accepts), and a float token whose double is an
 * integer in [2^53, 1e21) such as 1e20 (§10.2 accepts the token; the double prints as an integer it rejects).
 */
/**
 * The exact number the CTK's JSON reader hands over: a LosslessNumber (core tells it by the library's brand, never by
 * its shape) whose native JSON text is its own token. A framework that copies values with
 * `JSON.parse(JSON.stringify(v))`, or writes them into a model's text, so writes the number exactly where the runtime
 * has `JSON.rawJSON` (Node 21 and later), its double before that; never the wrapper object `{"isLosslessNumber":…}`,
 * which would read back as an object. What the copy parses back is the runtime's double, which §10.2 judges as it
 * judges the token for every integer beyond ±(2^53−1).
 */
export class HandedNumber extends LosslessNumber {
  toJSON(): unknown {
    const raw = (JSON as { rawJSON?: (text: string) => unknown }).rawJSON;
    // Stryker equivalent next-line ConditionalExpression `false` @12-37: which branch runs is the Node version's (json-text.test.ts checks both forms)
    return typeof raw === 'function' ? raw(this.value) : Number(this.value);
  }
}

// Stryker disable next-line BlockStatement: CTK-side: how the CTK's JSON parser hands numbers over (vectors, golden files, the stdio wire's reader); no host built on this code parses text; number-domain.test.ts pins it
export function handOverNumber(text: string): number | LosslessNumber {
  const n = Number(text);
  // Stryker disable next-line BooleanLiteral,ConditionalExpression: CTK-side: how the CTK's JSON parser hands numbers over (vectors, golden files, the stdio wire's reader); no host built on this code parses text; number-domain.test.ts pins it
  if (!Number.isFinite(n)) return new HandedNumber(text);
  const printed = JSON.stringify(n);
  // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator: CTK-side: how the CTK's JSON parser hands numbers over (vectors, golden files, the stdio wire's reader); no host built on this code parses text; number-domain.test.ts pins it
  if (printed !== text && numericKeyOfText(printed) !== numericKeyOfText(text)) return new HandedNumber(text);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: CTK-side: how the CTK's JSON parser hands numbers over (vectors, golden files, the stdio wire's reader); no host built on this code parses text; number-domain.test.ts pins it
  if (numberTokenProblem(text) !== nativeNumberProblem(n)) return new HandedNumber(text);
  return n;
}
