// One fast pass over a context before dispatch: is every value JSON (§4.4: finite numbers, no lone
// surrogates, plain objects, dense arrays, no cycles), within the §12.3 depth bound, and how large can its
// serialization be at most? The slow, message-building checks run only when this pass says no.
import { hasLoneSurrogate } from './canonical.js';
import { isLosslessNumberLike, isPlainObject } from './json.js';
import { numberTokenProblem } from './number-domain.js';

export interface DomainScan {
  /** Every value is JSON, no string or member name holds a lone surrogate, and nesting is within maxDepth. */
  clean: boolean;
  /** A lossless-json LosslessNumber occurs (serialization then needs a replacer). */
  lossless: boolean;
  /** An upper bound on the UTF-8 length of the JSON serialization (valid when clean). */
  maxBytes: number;
}

/** Recursion is bounded by `maxDepth` (a cycle exceeds it); a RangeError from a huge configured bound reads as not clean. */
export function scanJsonDomain(value: unknown, maxDepth: number): DomainScan {
  const scan: DomainScan = { clean: true, lossless: false, maxBytes: 0 };
  try {
    scan.clean = visit(value, 0, maxDepth, scan);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    scan.clean = false;
  }
  return scan;
}

/** A string's JSON text is at most 6 bytes per UTF-16 unit (\uXXXX) plus its quotes. */
const stringBound = (s: string) => 6 * s.length + 2;

function visit(v: unknown, depth: number, maxDepth: number, scan: DomainScan): boolean {
  switch (typeof v) {
    case 'string':
      scan.maxBytes += stringBound(v);
      return !hasLoneSurrogate(v);
    case 'number':
      scan.maxBytes += 25; // the longest ECMAScript Number::toString output
      return Number.isFinite(v);
    case 'boolean':
      scan.maxBytes += 5;
      return true;
    case 'object': {
      if (v === null) {
        scan.maxBytes += 4;
        return true;
      }
      if (depth >= maxDepth) return false;
      if (Array.isArray(v)) {
        scan.maxBytes += 2 + v.length;
        for (let i = 0; i < v.length; i++) if (!(i in v) || !visit(v[i], depth + 1, maxDepth, scan)) return false;
        return true;
      }
      if (isLosslessNumberLike(v)) {
        scan.lossless = true;
        scan.maxBytes += v.value.length;
        // §4.4 is about finiteness; an integer token beyond ±(2^53−1) is §10.2's business (the provider's).
        const problem = numberTokenProblem(v.value);
        return problem === null || problem === 'unsafe-integer';
      }
      if (!isPlainObject(v)) return false;
      scan.maxBytes += 2;
      for (const key of Object.keys(v)) {
        const child = v[key];
        if (child === undefined) continue; // dropped by JSON.stringify, absent for every JS SDK
        scan.maxBytes += stringBound(key) + 2;
        if (hasLoneSurrogate(key) || !visit(child, depth + 1, maxDepth, scan)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}
