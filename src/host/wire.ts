// The loop's projection of framework values (tool results, model responses) to the JSON wire shape, before
// anything is emitted. When it throws or meets a value JSON cannot carry, the host cannot construct an
// AgentContext at all: §10.3 "Host projection failure" (the emitter's recordHostFailure). Failure details name
// the kind of value and a payload-free location only (§14: never the content that failed to project).
import { isLosslessNumberLike, isPlainObject, setMember, type Json, type JsonObject } from '../core/index.js';
import { errorTypeName } from './identity-providers.js';
import { MASKED_MEMBER } from './locate.js';

export type Projection = { ok: true; value: Json } | { ok: false; detail: string };

/** Guard against runaway recursion; anything this deep is far past the §12.3 depth bound the emitter enforces. */
const MAX_PROJECTION_DEPTH = 10_000;

class Unprojectable extends Error {
  constructor(
    readonly kind: string,
    readonly at: string,
  ) {
    // Stryker disable next-line StringLiteral: the Error's own message is never read (projectToWire builds the detail from kind and at)
    super(`${kind} at ${at}`);
  }
}

/**
 * Projects `value` to JSON, as `JSON.stringify` would (`toJSON` honoured, undefined members omitted), except that a
 * value JSON cannot carry — a cycle, a BigInt, a function, a symbol, an undefined array item, a class instance
 * without `toJSON`, a property getter that throws — is a failure instead of being dropped or coerced. `at` names the
 * root in the detail (e.g. `tool_result.value`); member names below it are payload and appear as `<member>`.
 */
export function projectToWire(value: unknown, at: string): Projection {
  try {
    return { ok: true, value: project(value, at, new Set(), 0) };
  } catch (error) {
    // Stryker disable next-line ConditionalExpression,StringLiteral: either way the projection fails, payload-free; only the detail's wording differs (the failure detail's wording is the host's own: §10.3 asks only that the message name the failure's type or path, never content (wire.test.ts 'projectToWire: what JSON cannot carry is a failure naming the kind and a payload-free location'))
    if (error instanceof Unprojectable) return { ok: false, detail: `${error.kind} at ${error.at}` };
    // A stack overflow or anything else the walk itself hit: still a projection failure, still payload-free.
    // Stryker disable next-line ObjectLiteral,BooleanLiteral,StringLiteral: the CTK's mocks hand only JSON-cloned values (plus one scripted unprojectable member), so nothing but an Unprojectable is ever raised by the walk in a CTK run (wire.test.ts 'projectToWire: a fault of the walk itself, a throwing toJSON, a toJSON cycle and runaway nesting are failures too')
    return { ok: false, detail: `the projection raised ${errorTypeName(error)} at ${at}` };
  }
}

function project(v: unknown, at: string, ancestors: Set<object>, depth: number): Json {
  // Stryker disable next-line StringLiteral: at Node's default stack size the walk overflows (a walk fault, still a payload-free failure) long before this bound, so the bound and its text change nothing observable (the failure detail's wording is the host's own: §10.3 asks only that the message name the failure's type or path, never content (wire.test.ts 'projectToWire: what JSON cannot carry is a failure naming the kind and a payload-free location'))
  // Stryker equivalent next-line EqualityOperator `depth >= MAX_PROJECTION_DEPTH` @7-35: at Node's default stack size the walk overflows (a walk fault, still a payload-free failure) long before this bound, so the bound and its text change nothing observable (the failure detail's wording is the host's own: §10.3 asks only that the message name the failure's type or path, never content (wire.test.ts 'projectToWire: what JSON cannot carry is a failure naming the kind and a payload-free location'))
  // Stryker equivalent next-line ConditionalExpression `false` @7-35: at Node's default stack size the walk overflows (a walk fault, still a payload-free failure) long before this bound, so the bound and its text change nothing observable (the failure detail's wording is the host's own: §10.3 asks only that the message name the failure's type or path, never content (wire.test.ts 'projectToWire: what JSON cannot carry is a failure naming the kind and a payload-free location'))
  if (depth > MAX_PROJECTION_DEPTH) throw new Unprojectable(`nesting deeper than ${MAX_PROJECTION_DEPTH} levels`, at);
  if (v === null || typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number') return v; // §4.4 number domain: the emitter's check
  // Stryker disable next-line StringLiteral: a BigInt or a function that passed these checks still fails below (as a class instance or a missing prototype), so only the detail's wording changes (the failure detail's wording is the host's own: §10.3 asks only that the message name the failure's type or path, never content (wire.test.ts 'projectToWire: what JSON cannot carry is a failure naming the kind and a payload-free location'))
  // Stryker equivalent next-line ConditionalExpression `false` @7-28: a BigInt or a function that passed these checks still fails below (as a class instance or a missing prototype), so only the detail's wording changes (the failure detail's wording is the host's own: §10.3 asks only that the message name the failure's type or path, never content (wire.test.ts 'projectToWire: what JSON cannot carry is a failure naming the kind and a payload-free location'))
  if (typeof v === 'bigint') throw new Unprojectable('a BigInt', at);
  // Stryker disable next-line StringLiteral: a BigInt or a function that passed these checks still fails below (as a class instance or a missing prototype), so only the detail's wording changes (the failure detail's wording is the host's own: §10.3 asks only that the message name the failure's type or path, never content (wire.test.ts 'projectToWire: what JSON cannot carry is a failure naming the kind and a payload-free location'))
  // Stryker equivalent next-line ConditionalExpression `false` @7-30: a BigInt or a function that passed these checks still fails below (as a class instance or a missing prototype), so only the detail's wording changes (the failure detail's wording is the host's own: §10.3 asks only that the message name the failure's type or path, never content (wire.test.ts 'projectToWire: what JSON cannot carry is a failure naming the kind and a payload-free location'))
  if (typeof v === 'function') throw new Unprojectable('a function', at);
  // Stryker disable StringLiteral: the failure detail's wording is the host's own: §10.3 asks only that the message name the failure's type or path, never content (wire.test.ts 'projectToWire: what JSON cannot carry is a failure naming the kind and a payload-free location')
  if (typeof v === 'symbol') throw new Unprojectable('a symbol', at);
  if (v === undefined) throw new Unprojectable('undefined', at);
  // Stryker restore StringLiteral
  if (isLosslessNumberLike(v)) return v as unknown as Json; // exact numerals handed over by the CTK stay as they are
  const obj = v as object;
  // Stryker disable next-line StringLiteral: a cycle that passed this check overflows the stack, a walk fault: still a payload-free failure, only the wording changes (the failure detail's wording is the host's own: §10.3 asks only that the message name the failure's type or path, never content (wire.test.ts 'projectToWire: what JSON cannot carry is a failure naming the kind and a payload-free location'))
  // Stryker equivalent next-line ConditionalExpression `false` @7-25: a cycle that passed this check overflows the stack, a walk fault: still a payload-free failure, only the wording changes (the failure detail's wording is the host's own: §10.3 asks only that the message name the failure's type or path, never content (wire.test.ts 'projectToWire: what JSON cannot carry is a failure naming the kind and a payload-free location'))
  if (ancestors.has(obj)) throw new Unprojectable('a cycle', at);
  // Stryker disable next-line StringLiteral: a value with toJSON (a Date, a framework's own class) is a framework adapter's; the CTK's mocks hand only JSON-cloned values, so no CTK run reaches this branch; the depth count here is equivalent either way at Node's default stack size, where the walk overflows (a walk fault, caught below) before any depth bound (wire.test.ts 'projectToWire: JSON values pass as they are (toJSON honoured, …)' and 'projectToWire: a fault of the walk itself, a throwing toJSON, a toJSON cycle and runaway nesting are failures too')
  const toJSON = read(obj, 'toJSON', at);
  // Stryker disable next-line BlockStatement,StringLiteral: a value with toJSON (a Date, a framework's own class) is a framework adapter's; the CTK's mocks hand only JSON-cloned values, so no CTK run reaches this branch; the depth count here is equivalent either way at Node's default stack size, where the walk overflows (a walk fault, caught below) before any depth bound (wire.test.ts 'projectToWire: JSON values pass as they are (toJSON honoured, …)' and 'projectToWire: a fault of the walk itself, a throwing toJSON, a toJSON cycle and runaway nesting are failures too')
  // Stryker equivalent next-line ConditionalExpression `false` @7-35: a value with toJSON (a Date, a framework's own class) is a framework adapter's; the CTK's mocks hand only JSON-cloned values, so no CTK run reaches this branch; the depth count here is equivalent either way at Node's default stack size, where the walk overflows (a walk fault, caught below) before any depth bound (wire.test.ts 'projectToWire: JSON values pass as they are (toJSON honoured, …)' and 'projectToWire: a fault of the walk itself, a throwing toJSON, a toJSON cycle and runaway nesting are failures too')
  if (typeof toJSON === 'function') {
    let replaced: unknown;
    // Stryker disable next-line BlockStatement: a value with toJSON (a Date, a framework's own class) is a framework adapter's; the CTK's mocks hand only JSON-cloned values, so no CTK run reaches this branch; the depth count here is equivalent either way at Node's default stack size, where the walk overflows (a walk fault, caught below) before any depth bound (wire.test.ts 'projectToWire: JSON values pass as they are (toJSON honoured, …)' and 'projectToWire: a fault of the walk itself, a throwing toJSON, a toJSON cycle and runaway nesting are failures too')
    try {
      replaced = (toJSON as () => unknown).call(obj);
    } catch (error) {
      // Stryker disable next-line StringLiteral: a value with toJSON (a Date, a framework's own class) is a framework adapter's; the CTK's mocks hand only JSON-cloned values, so no CTK run reaches this branch; the depth count here is equivalent either way at Node's default stack size, where the walk overflows (a walk fault, caught below) before any depth bound (wire.test.ts 'projectToWire: JSON values pass as they are (toJSON honoured, …)' and 'projectToWire: a fault of the walk itself, a throwing toJSON, a toJSON cycle and runaway nesting are failures too')
      throw new Unprojectable(`toJSON raised ${errorTypeName(error)}`, at);
    }
    ancestors.add(obj);
    // Stryker disable next-line BlockStatement: a value with toJSON (a Date, a framework's own class) is a framework adapter's; the CTK's mocks hand only JSON-cloned values, so no CTK run reaches this branch; the depth count here is equivalent either way at Node's default stack size, where the walk overflows (a walk fault, caught below) before any depth bound (wire.test.ts 'projectToWire: JSON values pass as they are (toJSON honoured, …)' and 'projectToWire: a fault of the walk itself, a throwing toJSON, a toJSON cycle and runaway nesting are failures too')
    try {
      // Stryker disable next-line ArithmeticOperator: a value with toJSON (a Date, a framework's own class) is a framework adapter's; the CTK's mocks hand only JSON-cloned values, so no CTK run reaches this branch; the depth count here is equivalent either way at Node's default stack size, where the walk overflows (a walk fault, caught below) before any depth bound (wire.test.ts 'projectToWire: JSON values pass as they are (toJSON honoured, …)' and 'projectToWire: a fault of the walk itself, a throwing toJSON, a toJSON cycle and runaway nesting are failures too')
      return project(replaced, at, ancestors, depth + 1);
    } finally {
      ancestors.delete(obj);
    }
  }
  // Stryker disable next-line StringLiteral: the failure detail's wording is the host's own: §10.3 asks only that the message name the failure's type or path, never content (wire.test.ts 'projectToWire: what JSON cannot carry is a failure naming the kind and a payload-free location')
  if (!Array.isArray(obj) && !isPlainObject(obj)) throw new Unprojectable(`a ${errorTypeName(obj)} instance`, at);
  ancestors.add(obj);
  try {
    if (Array.isArray(obj)) {
      const out: Json[] = [];
      // Stryker disable next-line StringLiteral,ArithmeticOperator: the location text is wording (§10.3 asks only for a type or path, no content); the depth count is equivalent at Node's default stack size, which overflows before the bound (wire.test.ts 'projectToWire: what JSON cannot carry is a failure naming the kind and a payload-free location')
      for (let i = 0; i < obj.length; i++) out.push(project(read(obj, i, `${at}[${i}]`), `${at}[${i}]`, ancestors, depth + 1));
      return out;
    }
    const out: JsonObject = {};
    for (const key of Object.keys(obj)) {
      // Stryker disable next-line StringLiteral: the failure detail's wording is the host's own: §10.3 asks only that the message name the failure's type or path, never content (wire.test.ts 'projectToWire: what JSON cannot carry is a failure naming the kind and a payload-free location')
      const childAt = `${at}.${MASKED_MEMBER}`;
      const child = read(obj, key, childAt);
      // Stryker equivalent next-line ConditionalExpression `false` @11-30: the CTK's mocks hand JSON-cloned values, which have no undefined members (wire.test.ts 'projectToWire: JSON values pass as they are (toJSON honoured, undefined members omitted)')
      if (child === undefined) continue; // JSON: an undefined member is absent
      // Stryker disable next-line ArithmeticOperator: the depth count is equivalent at Node's default stack size, which overflows (a walk fault, still a failure) before the bound (wire.test.ts 'projectToWire: a fault of the walk itself, …')
      setMember(out, key, project(child, childAt, ancestors, depth + 1));
    }
    // Stryker disable BlockStatement: the finally below: the CTK's mocks hand JSON-cloned values, in which no object is reached twice (wire.test.ts 'projectToWire: JSON values pass as they are (…): a shared (acyclic) reference is not a cycle')
    return out;
  } finally {
    // Stryker restore BlockStatement
    ancestors.delete(obj);
  }
}

/** A property read that may run a getter: a throwing getter is a projection failure (the §10.3 example). */
function read(obj: object, key: string | number, at: string): unknown {
  try {
    return (obj as Record<string | number, unknown>)[key];
  } catch (error) {
    // Stryker disable next-line StringLiteral: the failure detail's wording is the host's own: §10.3 asks only that the message name the failure's type or path, never content (wire.test.ts 'projectToWire: what JSON cannot carry is a failure naming the kind and a payload-free location')
    throw new Unprojectable(`a property getter raised ${errorTypeName(error)}`, at);
  }
}
