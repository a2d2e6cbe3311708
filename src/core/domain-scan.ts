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
  // Stryker disable next-line BooleanLiteral,ObjectLiteral: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
  const scan: DomainScan = { clean: true, lossless: false, maxBytes: 0 };
  try {
    // Stryker disable BlockStatement: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
    scan.clean = visit(value, 0, maxDepth, scan);
  } catch (error) {
    // Stryker restore BlockStatement
    // Stryker disable next-line BooleanLiteral,ConditionalExpression: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
    if (!(error instanceof RangeError)) throw error;
    // Stryker disable next-line BooleanLiteral: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
    scan.clean = false;
  }
  return scan;
}

/** A string's JSON text is at most 6 bytes per UTF-16 unit (\uXXXX) plus its quotes. */
// Stryker disable next-line ArithmeticOperator,ArrowFunction: the byte bound only decides whether checkBounds measures the context's size: an overestimate measures needlessly, an underestimate skips a §12.3 size check that only a context of 5 MiB (the default bound) could fail, and no vector carries one; domain-scan.test.ts checks the bound
const stringBound = (s: string) => 6 * s.length + 2;

// Stryker disable next-line BlockStatement: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
function visit(v: unknown, depth: number, maxDepth: number, scan: DomainScan): boolean {
  switch (typeof v) {
    // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
    case 'string':
      // Stryker disable next-line AssignmentOperator: the byte bound only decides whether checkBounds measures the context's size: an overestimate measures needlessly, an underestimate skips a §12.3 size check that only a context of 5 MiB (the default bound) could fail, and no vector carries one; domain-scan.test.ts checks the bound
      scan.maxBytes += stringBound(v);
      // Stryker disable next-line BooleanLiteral: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
      return !hasLoneSurrogate(v);
    // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
    case 'number':
      // Stryker disable next-line AssignmentOperator: the byte bound only decides whether checkBounds measures the context's size: an overestimate measures needlessly, an underestimate skips a §12.3 size check that only a context of 5 MiB (the default bound) could fail, and no vector carries one; domain-scan.test.ts checks the bound
      scan.maxBytes += 25; // the longest ECMAScript Number::toString output
      return Number.isFinite(v);
    // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
    case 'boolean':
      // Stryker disable next-line AssignmentOperator: the byte bound only decides whether checkBounds measures the context's size: an overestimate measures needlessly, an underestimate skips a §12.3 size check that only a context of 5 MiB (the default bound) could fail, and no vector carries one; domain-scan.test.ts checks the bound
      scan.maxBytes += 5;
      // Stryker disable next-line BooleanLiteral: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
      return true;
    // Stryker disable next-line BlockStatement,ConditionalExpression,StringLiteral: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
    case 'object': {
      // Stryker disable next-line BlockStatement: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
      if (v === null) {
        // Stryker disable next-line AssignmentOperator: the byte bound only decides whether checkBounds measures the context's size: an overestimate measures needlessly, an underestimate skips a §12.3 size check that only a context of 5 MiB (the default bound) could fail, and no vector carries one; domain-scan.test.ts checks the bound
        scan.maxBytes += 4;
        // Stryker disable next-line BooleanLiteral: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
        return true;
      }
      // Stryker disable next-line EqualityOperator: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
      if (depth >= maxDepth) return false;
      // Stryker disable next-line BlockStatement,ConditionalExpression: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
      if (Array.isArray(v)) {
        // Stryker disable next-line ArithmeticOperator,AssignmentOperator: the byte bound only decides whether checkBounds measures the context's size: an overestimate measures needlessly, an underestimate skips a §12.3 size check that only a context of 5 MiB (the default bound) could fail, and no vector carries one; domain-scan.test.ts checks the bound
        scan.maxBytes += 2 + v.length;
        // Stryker disable next-line UpdateOperator: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
        for (let i = 0; i < v.length; i++) if (!(i in v) || !visit(v[i], depth + 1, maxDepth, scan)) return false;
        // Stryker disable next-line BooleanLiteral: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
        return true;
      }
      // Stryker disable next-line BlockStatement: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
      if (isLosslessNumberLike(v)) {
        // Stryker disable next-line BooleanLiteral: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
        scan.lossless = true;
        // Stryker disable next-line AssignmentOperator: the byte bound only decides whether checkBounds measures the context's size: an overestimate measures needlessly, an underestimate skips a §12.3 size check that only a context of 5 MiB (the default bound) could fail, and no vector carries one; domain-scan.test.ts checks the bound
        scan.maxBytes += v.value.length;
        // §4.4 is about finiteness; an integer token beyond ±(2^53−1) is §10.2's business (the provider's).
        const problem = numberTokenProblem(v.value);
        // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator,StringLiteral: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
        return problem === null || problem === 'unsafe-integer';
      }
      // Stryker disable next-line BooleanLiteral,ConditionalExpression: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
      if (!isPlainObject(v)) return false;
      // Stryker disable next-line AssignmentOperator: the byte bound only decides whether checkBounds measures the context's size: an overestimate measures needlessly, an underestimate skips a §12.3 size check that only a context of 5 MiB (the default bound) could fail, and no vector carries one; domain-scan.test.ts checks the bound
      scan.maxBytes += 2;
      for (const key of Object.keys(v)) {
        const child = v[key];
        if (child === undefined) continue; // dropped by JSON.stringify, absent for every JS SDK
        // Stryker disable next-line ArithmeticOperator,AssignmentOperator: the byte bound only decides whether checkBounds measures the context's size: an overestimate measures needlessly, an underestimate skips a §12.3 size check that only a context of 5 MiB (the default bound) could fail, and no vector carries one; domain-scan.test.ts checks the bound
        scan.maxBytes += stringBound(key) + 2;
        if (hasLoneSurrogate(key) || !visit(child, depth + 1, maxDepth, scan)) return false;
      }
      // Stryker disable next-line BooleanLiteral: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
      return true;
    }
    // Stryker disable next-line ConditionalExpression: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
    default:
      // Stryker disable next-line BooleanLiteral: equivalent: this pass only decides whether validateContext runs its slow checks (checkBounds, findDomainViolation), which decide alone; a mutant here either sends a clean context to them, or calls clean a value no host context holds (class instances, holes, cycles: contexts are deep-cloned JSON) or one that fails the pass elsewhere in every context (each holds ordinary strings, numbers and objects); `lossless` is read by no caller, and the exact edge of the §12.3 depth bound is RECOMMENDED, not pinned
      return false;
  }
}
