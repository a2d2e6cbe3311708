// §5.2 transform paths (grammar: GRAMMAR.md §7.1) and the dotted path language of vector `match`/`assert` maps (GRAMMAR.md §7.2).
import type { Json } from './types.js';
import { HOST_ERROR } from './reasons.js';
import { PathSyntaxError } from './errors.js';
import { deepClone, isPlainObject } from './json.js';

export type PathSegment = { kind: 'member'; name: string } | { kind: 'index'; index: number };

export type TargetPathError = {
  ok: false;
  reason: typeof HOST_ERROR.transform_target_forbidden | typeof HOST_ERROR.transform_invalid;
  detail: string;
};
export type ParseTargetPathResult = { ok: true; segments: PathSegment[] } | TargetPathError;
export type ResolveResult = { found: true; value: Json } | { found: false };
export type SetPathResult = { ok: true; root: Json } | { ok: false; reason: typeof HOST_ERROR.transform_invalid; detail: string };

/** §5.2: the canonical root and its deprecated alias (removed in agent-hooks v0.3). */
export const TARGET_ROOTS = ['$target', '$policy_target'] as const;

const NAME_CHAR = /[A-Za-z0-9_-]/;

// Mutation-run notes (the tags of the `Stryker disable` comments below; issue 18). AH-CTK-600, 720 and 724 pin what a
// $target path may and may not address; what remains undetected is one of:
// [dotted]  the `dotted` flavour and getDotted serve the CTK's vector paths (match/assert); the host parses only its
//           own fixed, plain field names with them, so no host behaviour depends on the branch.
// [equivalent] no input behaves differently: a looser index pattern or a skipped isSafeInteger check (an unsafe
//           index is past the end of every array), a `"`-test on a bracket that can only be refused anyway (its
//           content is neither an index nor a JSON string), a failed JSON.parse of a quoted member (refused as empty
//           next), a -1/+1 from findStringEnd (both refused by the "]" check), a loop bound one past the end (reads
//           undefined), a member holding undefined (JSON has none), an empty segment list (the rebuild loop is skipped).
// [message] the text of a diagnostic, which the spec leaves to the host.

/**
 * Parses a §5.2 `transform.path`.
 * - Not a string, or not rooted at `$target`/`$policy_target` → transform_target_forbidden (§5.2, §11).
 *   "Rooted" means the root identifier ends there (end of path or a non-name character): `$targetx` and
 *   `$target-1` name a different root (forbidden), while `$target ` or `$target]` are rooted but malformed.
 * - Rooted but any segment malformed (`$target..x`, `$target[-1]`, `$target['a']`, `$target[01]`) → transform_invalid:
 *   a path that cannot be parsed does not resolve (§5.2).
 * Index literals are decimal without leading zeros (`[0]`, `[12]`), at most 2^53−1.
 */
export function parseTargetPath(path: unknown): ParseTargetPathResult {
  // Stryker disable next-line BlockStatement: [gate] the §5 gate refuses a non-string transform.path before any parse (verdict-gate.ts); paths.test.ts 'not rooted at $target → transform_target_forbidden' kills it
  // Stryker equivalent next-line ConditionalExpression `false` @7-31: [gate] the §5 gate refuses a non-string transform.path before any parse (verdict-gate.ts); paths.test.ts 'not rooted at $target → transform_target_forbidden' kills it
  if (typeof path !== 'string') {
    // Stryker disable next-line StringLiteral: [gate] the §5 gate refuses a non-string transform.path before any parse (verdict-gate.ts); paths.test.ts 'not rooted at $target → transform_target_forbidden' kills it
    return forbidden(`transform.path must be a string rooted at $target, got ${describe(path)}`);
  }
  const root = TARGET_ROOTS.find((r) => path.startsWith(r) && (path.length === r.length || !NAME_CHAR.test(path[r.length]!)));
  if (root === undefined) {
    // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
    return forbidden(`transform.path ${JSON.stringify(path)} is not rooted at $target (or its alias $policy_target) (§5.2)`);
  }
  const parsed = parseSegments(path, root.length, 'target');
  if (!parsed.ok) {
    // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
    return { ok: false, reason: HOST_ERROR.transform_invalid, detail: `transform.path ${JSON.stringify(path)} is malformed: ${parsed.detail}` };
  }
  return { ok: true, segments: parsed.segments };
}

type SegmentsResult = { ok: true; segments: PathSegment[] } | { ok: false; detail: string };

/**
 * Parses `.name` / `[N]` / `["name"]` segments from `pos`.
 * 'target' flavour: names are 1+ ASCII letters/digits/_/- everywhere (GRAMMAR.md §7.1).
 * 'dotted' flavour: a `.name` is 1+ characters other than `.`, `[`, `]`; `["…"]` is any JSON string literal.
 */
function parseSegments(path: string, pos: number, flavour: 'target' | 'dotted'): SegmentsResult {
  const segments: PathSegment[] = [];
  let i = pos;
  while (i < path.length) {
    const c = path[i];
    if (c === '.') {
      let j = i + 1;
      if (flavour === 'target') while (j < path.length && NAME_CHAR.test(path[j]!)) j++;
      else {
        // Stryker disable next-line EqualityOperator: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
        // Stryker equivalent next-line ConditionalExpression `false` @16-88: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
        // Stryker equivalent next-line ConditionalExpression `true` @16-69: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
        // Stryker equivalent next-line ConditionalExpression `true` @16-50: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
        // Stryker equivalent next-line ConditionalExpression `true` @16-31: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
        // Stryker equivalent next-line ConditionalExpression `true` @54-69: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
        // Stryker equivalent next-line ConditionalExpression `true` @73-88: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
        // Stryker equivalent next-line StringLiteral `""` @66-69: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
        // Stryker equivalent next-line StringLiteral `""` @85-88: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
        while (j < path.length && path[j] !== '.' && path[j] !== '[' && path[j] !== ']') j++;
      }
      // Stryker disable next-line ObjectLiteral,StringLiteral: [equivalent] the literal without ok is still a failure to the caller, so the path is refused the same; only the message differs
      if (j === i + 1) return { ok: false, detail: `empty or invalid member name at offset ${i + 1}` };
      // Stryker disable next-line BlockStatement: [equivalent] the next turn of the loop refuses any character other than "." and "[" (the else below), so this early refusal changes only the message
      // Stryker equivalent next-line ConditionalExpression `true` @11-88: [equivalent] the next turn of the loop refuses any character other than "." and "[" (the else below), so this early refusal changes only the message
      // Stryker equivalent next-line ConditionalExpression `true` @11-69: [equivalent] the next turn of the loop refuses any character other than "." and "[" (the else below), so this early refusal changes only the message
      // Stryker equivalent next-line ConditionalExpression `true` @11-50: [equivalent] the next turn of the loop refuses any character other than "." and "[" (the else below), so this early refusal changes only the message
      // Stryker equivalent next-line ConditionalExpression `false` @11-88: [equivalent] the next turn of the loop refuses any character other than "." and "[" (the else below), so this early refusal changes only the message
      // Stryker equivalent next-line ConditionalExpression `true` @11-31: [equivalent] the next turn of the loop refuses any character other than "." and "[" (the else below), so this early refusal changes only the message
      // Stryker equivalent next-line EqualityOperator `flavour !== 'target'` @11-31: [equivalent] the next turn of the loop refuses any character other than "." and "[" (the else below), so this early refusal changes only the message
      // Stryker equivalent next-line StringLiteral `""` @23-31: [equivalent] the next turn of the loop refuses any character other than "." and "[" (the else below), so this early refusal changes only the message
      if (flavour === 'target' && j < path.length && path[j] !== '.' && path[j] !== '[') {
        // Stryker disable next-line ObjectLiteral,StringLiteral: [equivalent] the literal without ok is still a failure to the caller, so the path is refused the same; only the message differs
        return { ok: false, detail: `character ${JSON.stringify(path[j])} at offset ${j} is not allowed in a member name (ASCII letters, digits, _ and - only)` };
      }
      segments.push({ kind: 'member', name: path.slice(i + 1, j) });
      i = j;
    } else if (c === '[') {
      const close = path[i + 1] === '"' ? findStringEnd(path, i + 1) : path.indexOf(']', i + 1);
      // Stryker disable next-line ObjectLiteral,StringLiteral: [equivalent] an unterminated bracket is refused by the "]" check below as well; only the message differs
      // Stryker equivalent next-line ConditionalExpression `false` @11-20: [equivalent] an unterminated bracket is refused by the "]" check below as well; only the message differs
      // Stryker equivalent next-line EqualityOperator `close <= 0` @11-20: [equivalent] an unterminated bracket is refused by the "]" check below as well; only the message differs
      if (close < 0) return { ok: false, detail: `unterminated bracket at offset ${i}` };
      const inner = path.slice(i + 1, path[i + 1] === '"' ? close + 1 : close);
      const after = path[i + 1] === '"' ? close + 1 : close;
      // Stryker disable next-line ObjectLiteral: [equivalent] the literal without ok is still a failure to the caller, so the path is refused the same; only the message differs
      // Stryker equivalent next-line StringLiteral @60-93: [equivalent] the literal without ok is still a failure to the caller, so the path is refused the same; only the message differs
      if (path[after] !== ']') return { ok: false, detail: `expected "]" at offset ${after}` };
      const seg = parseBracket(inner, flavour);
      // Stryker disable next-line ObjectLiteral: [equivalent] the literal without ok is still a failure to the caller, so the path is refused the same; only the message differs
      // Stryker equivalent next-line StringLiteral @64-87: [equivalent] the literal without ok is still a failure to the caller, so the path is refused the same; only the message differs
      if (typeof seg === 'string') return { ok: false, detail: `${seg} at offset ${i}` };
      segments.push(seg);
      i = after + 1;
    } else {
      // Stryker disable next-line ObjectLiteral,StringLiteral: [equivalent] the literal without ok is still a failure to the caller, so the path is refused the same; only the message differs
      return { ok: false, detail: `unexpected character ${JSON.stringify(c)} at offset ${i} (expected ".name", "[N]" or '["name"]')` };
    }
  }
  return { ok: true, segments };
}

/** Index of the closing quote of the JSON string literal starting at `start` (a `"`), or -1. */
function findStringEnd(path: string, start: number): number {
  // Stryker equivalent next-line EqualityOperator `i <= path.length` @27-42: [equivalent] no input behaves differently: see the note at the top of this file
  for (let i = start + 1; i < path.length; i++) {
    // Stryker disable next-line StringLiteral: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
    // Stryker equivalent next-line ConditionalExpression `false` @9-25: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
    if (path[i] === '\\') i++;
    else if (path[i] === '"') return i;
  }
  // Stryker disable next-line UnaryOperator: [equivalent] no input behaves differently: see the note at the top of this file
  return -1;
}

function parseBracket(inner: string, flavour: 'target' | 'dotted'): PathSegment | string {
  if (/^(0|[1-9][0-9]*)$/.test(inner)) {
    const index = Number(inner);
    // Stryker disable next-line StringLiteral: [equivalent] no input behaves differently: see the note at the top of this file
    // Stryker equivalent next-line ConditionalExpression `false` @9-37: [equivalent] no input behaves differently: see the note at the top of this file
    if (!Number.isSafeInteger(index)) return `index ${inner} is too large`;
    return { kind: 'index', index };
  }
  // Stryker disable next-line MethodExpression,StringLiteral: [equivalent] no input behaves differently: see the note at the top of this file
  // Stryker equivalent next-line ConditionalExpression `true` @7-28: [equivalent] no input behaves differently: see the note at the top of this file
  if (inner.startsWith('"')) {
    let name: unknown;
    try {
      // Stryker disable BlockStatement: [equivalent] no input behaves differently: see the note at the top of this file
      name = JSON.parse(inner);
    } catch {
      // Stryker restore BlockStatement
      // Stryker disable next-line StringLiteral: [equivalent] no input behaves differently: see the note at the top of this file
      return `invalid quoted member ${inner}`;
    }
    // Stryker disable next-line LogicalOperator: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
    // Stryker equivalent next-line ConditionalExpression `false` @9-54: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
    // Stryker equivalent next-line ConditionalExpression `false` @9-33: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
    // Stryker equivalent next-line ConditionalExpression `false` @37-54: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
    // Stryker equivalent next-line StringLiteral @63-84: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
    if (typeof name !== 'string' || name.length === 0) return `empty quoted member`;
    if (flavour === 'target' && !/^[A-Za-z0-9_-]+$/.test(name)) {
      // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
      return `quoted member ${inner} has characters other than ASCII letters, digits, _ and -`;
    }
    return { kind: 'member', name };
  }
  // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
  return `bracket content ${JSON.stringify(inner)} is neither a decimal index nor a double-quoted name`;
}

/** Resolves segments against a JSON value (own members of plain objects, in-range array indexes). */
export function resolvePath(root: Json, segments: readonly PathSegment[]): ResolveResult {
  let cur: unknown = root;
  for (const seg of segments) {
    const next = step(cur, seg);
    // Stryker disable next-line BooleanLiteral,ObjectLiteral: [dotted] for the host a miss and a missing field are refused alike (envelope.ts require()); the CTK's match/assert lookups depend on it; paths.test.ts 'resolvePath' and 'dotted paths for match/assert' kill it
    // Stryker equivalent next-line ConditionalExpression `false` @9-25: [dotted] for the host a miss and a missing field are refused alike (envelope.ts require()); the CTK's match/assert lookups depend on it; paths.test.ts 'resolvePath' and 'dotted paths for match/assert' kill it
    if (next === MISSING) return { found: false };
    cur = next;
  }
  return { found: true, value: cur as Json };
}

const MISSING = Symbol('missing');
function step(cur: unknown, seg: PathSegment): unknown {
  if (seg.kind === 'member') {
    if (!isPlainObject(cur) || !Object.prototype.hasOwnProperty.call(cur, seg.name)) return MISSING;
    const v = cur[seg.name];
    // Stryker equivalent next-line ConditionalExpression `false` @12-27: [equivalent] no input behaves differently: see the note at the top of this file
    return v === undefined ? MISSING : v;
  }
  if (!Array.isArray(cur) || seg.index >= cur.length) return MISSING;
  return cur[seg.index] as unknown;
}

/**
 * §5.2: replaces the location `segments` addresses with `value`, returning a new root.
 * Never mutates `root` or `value`: the spine is copied, the rest shared, the value deep-copied.
 * Segments [] replace the whole target. Every addressed location must already exist:
 * a missing member, an out-of-range index, a member on a non-object or an index on a non-array
 * "does not resolve" → transform_invalid (§5.2, §11). No keys are created, no arrays grown.
 */
export function setPath(root: Json, segments: readonly PathSegment[], value: Json): SetPathResult {
  const replacement = deepClone(value);
  // Stryker equivalent next-line ConditionalExpression `false` @7-28: [equivalent] no input behaves differently: see the note at the top of this file
  if (segments.length === 0) return { ok: true, root: replacement };
  // Walk down, collecting the containers along the spine.
  const spine: unknown[] = [];
  let cur: unknown = root;
  for (let k = 0; k < segments.length; k++) {
    const seg = segments[k]!;
    const next = step(cur, seg);
    if (next === MISSING) {
      // Stryker disable next-line ArithmeticOperator,MethodExpression,StringLiteral: [message] diagnostic wording, which the spec leaves to the host
      return { ok: false, reason: HOST_ERROR.transform_invalid, detail: `path did not resolve at ${formatPath(segments.slice(0, k + 1))}: ${whyMissing(cur, seg)}` };
    }
    spine.push(cur);
    cur = next;
  }
  // Rebuild bottom-up with shallow copies of each container on the spine.
  let built: unknown = replacement;
  for (let k = segments.length - 1; k >= 0; k--) {
    const seg = segments[k]!;
    const container = spine[k];
    if (seg.kind === 'index') {
      const copy = (container as unknown[]).slice();
      copy[seg.index] = built;
      built = copy;
    } else {
      built = { ...(container as Record<string, unknown>), [seg.name]: built };
    }
  }
  return { ok: true, root: built as Json };
}

// Stryker disable next-line BlockStatement: [message] diagnostic wording, which the spec leaves to the host
function whyMissing(cur: unknown, seg: PathSegment): string {
  // Stryker disable next-line BlockStatement,ConditionalExpression,EqualityOperator,StringLiteral: [message] diagnostic wording, which the spec leaves to the host
  if (seg.kind === 'member') {
    // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
    return isPlainObject(cur) ? `member "${seg.name}" does not exist` : `member "${seg.name}" addressed on a ${kindOf(cur)}, not an object`;
  }
  // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
  return Array.isArray(cur) ? `index ${seg.index} is out of range (length ${cur.length})` : `index ${seg.index} addressed on a ${kindOf(cur)}, not an array`;
}

// Stryker disable next-line BlockStatement: [message] diagnostic wording, which the spec leaves to the host
function kindOf(v: unknown): string {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: [message] diagnostic wording, which the spec leaves to the host
  if (v === null) return 'null';
  // Stryker disable next-line ConditionalExpression,StringLiteral: [message] diagnostic wording, which the spec leaves to the host
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

// Stryker disable next-line BlockStatement: [message] diagnostic wording, which the spec leaves to the host
function describe(v: unknown): string {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: [message] diagnostic wording, which the spec leaves to the host
  if (v === undefined) return 'nothing';
  return kindOf(v);
}

function forbidden(detail: string): TargetPathError {
  return { ok: false, reason: HOST_ERROR.transform_target_forbidden, detail };
}

/** Renders segments back as a `$target…` path (bracket-quoting names outside the plain-name charset). */
// Stryker disable next-line BlockStatement,StringLiteral: [message] diagnostic wording, which the spec leaves to the host
export function formatPath(segments: readonly PathSegment[], root = '$target'): string {
  let out = root;
  // Stryker disable BlockStatement,ConditionalExpression,EqualityOperator,Regex,StringLiteral: [message] diagnostic wording, which the spec leaves to the host (the whole rendering)
  for (const seg of segments) {
    if (seg.kind === 'index') out += `[${seg.index}]`;
    else if (/^[A-Za-z0-9_-]+$/.test(seg.name)) out += `.${seg.name}`;
    else out += `[${JSON.stringify(seg.name)}]`;
  }
  // Stryker restore BlockStatement,ConditionalExpression,EqualityOperator,Regex,StringLiteral
  return out;
}

/**
 * The vector `match`/`assert` path language: `a.b`, `a.b[0].c`, `a["x.y"]`, keys with `-`.
 * The first segment is a bare name or a bracket. Throws PathSyntaxError on a malformed path
 * (an authoring error the vector validator reports); never throws on a miss.
 */
export function parseDottedPath(path: string): PathSegment[] {
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
  if (typeof path !== 'string' || path.length === 0) throw new PathSyntaxError(String(path), 'empty path');
  // Stryker disable next-line MethodExpression: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
  const src = path.startsWith('[') ? path : `.${path}`;
  // Stryker disable next-line StringLiteral: [equivalent] every flavour other than 'target' parses as the dotted one
  const parsed = parseSegments(src, 0, 'dotted');
  // Stryker disable next-line ConditionalExpression: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
  if (!parsed.ok) throw new PathSyntaxError(path, parsed.detail);
  return parsed.segments;
}

/** Non-throwing form of parseDottedPath, for validators. */
// Stryker disable next-line BlockStatement: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
export function tryParseDottedPath(path: string): { ok: true; segments: PathSegment[] } | { ok: false; detail: string } {
  // Stryker disable next-line BlockStatement: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
  try {
    // Stryker disable BlockStatement: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
    // Stryker disable next-line BooleanLiteral,ObjectLiteral: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
    return { ok: true, segments: parseDottedPath(path) };
  } catch (error) {
    // Stryker restore BlockStatement
    // Stryker disable next-line BooleanLiteral,ObjectLiteral: [dotted] only the CTK's vector path language reaches this: the host parses its own plain field names only (TARGET_FIELD, envelope.ts); paths.test.ts 'dotted paths for match/assert' kills it
    return { ok: false, detail: (error as Error).message };
  }
}

const dottedCache = new Map<string, PathSegment[]>();

/** Resolves a dotted path; found=false on any miss. Throws PathSyntaxError only if the path itself is malformed. */
export function getDotted(obj: Json, path: string): { found: boolean; value?: Json } {
  let segments = dottedCache.get(path);
  // Stryker disable next-line BlockStatement,ConditionalExpression,EqualityOperator: [equivalent] a memo of parsed paths: with it or without it the same segments result
  if (segments === undefined) {
    segments = parseDottedPath(path);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: [equivalent] a memo of parsed paths: with it or without it the same segments result
    if (dottedCache.size < 4096) dottedCache.set(path, segments);
  }
  const r = resolvePath(obj, segments);
  // Stryker equivalent next-line BooleanLiteral `true` @63-68: [dotted] for the host a miss and a missing field are refused alike (envelope.ts require()); the CTK's match/assert lookups depend on it; paths.test.ts 'resolvePath' and 'dotted paths for match/assert' kill it
  // Stryker equivalent next-line ObjectLiteral `{}` @54-70: [dotted] for the host a miss and a missing field are refused alike (envelope.ts require()); the CTK's match/assert lookups depend on it; paths.test.ts 'resolvePath' and 'dotted paths for match/assert' kill it
  return r.found ? { found: true, value: r.value } : { found: false };
}
