// Vector and suite digests for reproducible reports (§13.2: a claim is re-runnable against the same vectors).
//
// Vector digest preimage: the vector's RFC 8785 canonical JSON, UTF-8 encoded, as parsed by the
// runner (lossless-json). Objects sort their members by UTF-16 code units, no insignificant
// whitespace, strings use ECMAScript JSON.stringify escapes, numbers use ECMAScript
// Number::toString. Two documented extensions keep the digest total and injective over values that
// RFC 8785 itself refuses but vectors legitimately carry to exercise the §4.4/§10.2 guards:
//   - a number the runner keeps as written (a LosslessNumber, HARNESS.md "Numbers") whose text lossless-json's
//     isSafeNumber does not accept (9007199254740993, 1e20, 1.00000000000000000001) is written as its source
//     text, verbatim;
//   - a lone surrogate in a string is written as a lowercase \udxxx escape (well-formed JSON.stringify).
// For every I-JSON value the bytes equal the RFC 8785 bytes. (We do not call the identity
// canonicalizer: it must reject exactly those values, §10.2, while a digest must cover them.)
//
// Suite digest preimage: for each vector, sorted by id (UTF-16 code units), the line
// "<id> <vector digest>\n"; the lines concatenated, UTF-8 encoded, SHA-256, "sha256:" + lowercase hex.
import { createHash } from 'node:crypto';
import { isSafeNumber } from 'lossless-json';

/** "sha256:<hex>" over the vector's canonical JSON bytes (see the preimage above). */
export function vectorDigest(vector: unknown): string {
  return sha256(canonicalVectorJson(vector));
}

/** "sha256:<hex>" over "<id> <digest>\n" for each entry, in id order. */
export function suiteDigest(entries: ReadonlyArray<{ id: string; digest: string }>): string {
  return sha256(suiteDigestPreimage(entries));
}

/** The exact text the suite digest hashes. */
export function suiteDigestPreimage(entries: ReadonlyArray<{ id: string; digest: string }>): string {
  const sorted = [...entries].sort((a, b) => compareCodeUnits(a.id, b.id));
  return sorted.map((e) => `${e.id} ${e.digest}\n`).join('');
}

/** The exact text a vector digest hashes. Throws DigestInputError on a value JSON cannot carry. */
export function canonicalVectorJson(value: unknown): string {
  return serialize(value, []);
}

export class DigestInputError extends Error {
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(`cannot digest the value at ${path}: ${detail}`);
    this.name = 'DigestInputError';
  }
}

function sha256(text: string): string {
  return 'sha256:' + createHash('sha256').update(text, 'utf8').digest('hex');
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isLossless(value: object): value is { isLosslessNumber: true; value: string } {
  const v = value as { isLosslessNumber?: unknown; value?: unknown };
  return v.isLosslessNumber === true && typeof v.value === 'string';
}

/** "$", then ".key" or "[index]" per step: where in the vector a value is, for the error only. */
function pathText(steps: readonly (string | number)[]): string {
  return '$' + steps.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('');
}

/** `steps` is the way down to `value` (pushed and popped as the walk goes: no path is built unless it is reported). */
function serialize(value: unknown, steps: (string | number)[]): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new DigestInputError(pathText(steps), `non-finite number ${value}`);
      return JSON.stringify(value); // ECMAScript Number::toString, as RFC 8785 §3.2.2.3
    case 'bigint':
      return value.toString();
    case 'object':
      break;
    default:
      throw new DigestInputError(pathText(steps), `a ${typeof value} is not JSON`);
  }
  if (isLossless(value)) {
    const text = value.value;
    if (isSafeNumber(text)) return JSON.stringify(Number(text));
    return text;
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (i > 0) out += ',';
      if (item === undefined) {
        if (i in value) out += 'null'; // a hole in a sparse array writes nothing, as Array.prototype.map + join did
      } else {
        steps.push(i);
        out += serialize(item, steps);
        steps.pop();
      }
    }
    return out + ']';
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort(compareCodeUnits);
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (i > 0) out += ',';
    steps.push(k);
    out += JSON.stringify(k) + ':' + serialize(record[k], steps);
    steps.pop();
  }
  return out + '}';
}
