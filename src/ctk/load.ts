// Vector loading: files or directories (recursive *.json), lossless parse, ajv validation
// against schema/vectors.schema.json, the semantic rules a schema cannot state, duplicate ids.
// Every problem names the file and the JSON pointer; the CLI turns VectorLoadError into exit 2.
import { POSTURES, POSTURE_NAMES, isPostureName } from '../core/postures.js';
import { READINGS, READING_NAMES, isReadingName } from '../core/readings.js';
import { readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ErrorObject } from 'ajv';
import { vectorFileValidator } from '../core/vector-schema.js';
import { PACKAGE_ROOT } from '../version.js';
import { PROFILE_KNOBS, type Knob, type Profile } from '../core/types.js';
import { vectorDigest } from '../results/digest.js';
import { partName } from '../results/tally.js';
import { tryParseDottedPath } from '../core/paths.js';
import { isLosslessNumberLike } from '../core/json.js';
import { JsonSyntaxError, parseLossless, stringifyLossless, toPlainJson } from './json.js';
import { decodeUtf8, Utf8Error } from '../core/utf8.js';
import { impliedCapabilities, usesStream, type ExpectedInterception, type ExpectedRecord, type LoadedVector, type Vector } from './vector.js';
import { byPostureProblem } from './posture-cases.js';
import type { JsonObject } from '../core/types.js';

export class VectorLoadError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'VectorLoadError';
  }
}

/** schema/vectors.schema.json, compiled at build time (scripts/generate-validators.mjs) with allErrors, non-strict. */
const vectorValidator = vectorFileValidator;

/** The schema document itself, read only to suggest the nearest admitted member of a misnamed one. */
let schemaDocument: JsonObject | undefined;
function vectorSchema(): JsonObject {
  schemaDocument ??= JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'schema', 'vectors.schema.json'), 'utf8')) as JsonObject;
  return schemaDocument;
}

/** The default corpus: the package's own vectors/. */
export function defaultVectorPaths(): string[] {
  return [path.join(PACKAGE_ROOT, 'vectors')];
}

/** Expands files and directories into the list of *.json files (sorted, recursive). Missing paths are load errors. */
export function findVectorFiles(paths: readonly string[]): string[] {
  const files: string[] = [];
  const problems: string[] = [];
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch {
      problems.push(`${display(p)}: no such file or directory`);
      continue;
    }
    if (st.isDirectory()) files.push(...walk(p));
    else files.push(p);
  }
  if (problems.length > 0) throw new VectorLoadError(problems);
  return [...new Set(files.map((f) => path.resolve(f)))];
}

function walk(dir: string, seen = new Set<string>()): string[] {
  const out: string[] = [];
  const real = realpathSync(dir);
  if (seen.has(real)) return out; // a link cycle
  seen.add(real);
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(dir, entry.name);
    let isDir = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      try {
        const st = statSync(full);
        isDir = st.isDirectory();
        isFile = st.isFile();
      } catch {
        continue; // a dangling link is not a vector
      }
    }
    if (isDir) out.push(...walk(full, seen));
    else if (isFile && entry.name.endsWith('.json')) out.push(full);
  }
  return out;
}

/** Path relative to the working directory, for messages. */
export function display(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel === '' ? '.' : rel.startsWith('..') && path.isAbsolute(file) ? file : rel;
}

/** Loads, validates and checks a suite. Throws VectorLoadError listing one problem per bad file. */
export function loadVectors(paths: readonly string[]): LoadedVector[] {
  const files = findVectorFiles(paths);
  const problems: string[] = [];
  const loaded: LoadedVector[] = [];
  for (const file of files) {
    const result = loadVectorFile(file);
    if ('problem' in result) problems.push(result.problem);
    else loaded.push(result.loaded);
  }
  const seen = new Map<string, string>();
  for (const lv of loaded) {
    const other = seen.get(lv.vector.id);
    if (other !== undefined) problems.push(`${display(lv.file)}: /id: duplicate id "${lv.vector.id}" (also in ${display(other)}); ids are unique within a suite`);
    else seen.set(lv.vector.id, lv.file);
  }
  if (problems.length > 0) throw new VectorLoadError(problems);
  return loaded.sort((a, b) => (a.vector.id < b.vector.id ? -1 : a.vector.id > b.vector.id ? 1 : 0));
}

/** One file: either the loaded vector or one clear problem naming the file and pointer. */
export function loadVectorFile(file: string): { loaded: LoadedVector } | { problem: string } {
  const read = readVectorJson(file);
  return 'problem' in read ? read : vectorFromValue(read.value, file);
}

/** Reads a vector file as JSON: strict UTF-8, a BOM ignored, numbers lossless; or one problem naming the file. */
export function readVectorJson(file: string): { value: unknown } | { problem: string } {
  const name = display(file);
  let text: string;
  try {
    text = decodeUtf8(readFileSync(file));
  } catch (error) {
    if (error instanceof Utf8Error) return { problem: `${name}: ${error.message}` };
    return { problem: `${name}: cannot read file (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  try {
    return { value: parseLossless(text.replace(/^\uFEFF/, '')) }; // RFC 8259 §8.1: a parser may ignore a byte order mark
  } catch (error) {
    const e = error as JsonSyntaxError;
    return { problem: `${name}: ${/^nested too deeply/.test(e.message) ? '' : 'not valid JSON: '}${e.message}` };
  }
}

/** Checks an already-parsed vector value (as lossless-json parsed it) and wraps it with its metadata. */
export function vectorFromValue(value: unknown, file: string): { loaded: LoadedVector } | { problem: string } {
  const problem = checkVector(value);
  if (problem !== undefined) return { problem: `${display(file)}: ${problem}` };
  const vector = value as Vector;
  let digest: string;
  try {
    digest = vectorDigest(vector);
  } catch (error) {
    return { problem: `${display(file)}: /: cannot digest the vector (${(error as Error).message})` };
  }
  return {
    loaded: { vector, file, digest, part: partName(vector.part), requiredCapabilities: impliedCapabilities(vector) },
  };
}

/** Schema plus semantic checks; returns "<pointer>: <message>" or undefined. */
export function checkVector(value: unknown): string | undefined {
  const validate = vectorValidator();
  const plain = toPlainJson(value);
  if (!validate(plain)) return describeAjvError(validate.errors ?? []);
  return semanticProblem(value as Vector);
}

/** Picks the most specific ajv error and phrases it as "<pointer>: <message>". */
function describeAjvError(errors: ErrorObject[]): string {
  const useful = errors.filter((e) => !['anyOf', 'oneOf', 'if', 'not'].includes(e.keyword));
  const pool = useful.length > 0 ? useful : errors;
  const depth = (e: ErrorObject) => (e.instancePath === '' ? 0 : e.instancePath.split('/').length) + (e.keyword === 'additionalProperties' || e.keyword === 'required' ? 1 : 0);
  // At equal depth an unknown member comes before a missing one: it is most often the missing one misspelt.
  const rank = (e: ErrorObject) => (e.keyword === 'additionalProperties' ? 0 : 1);
  const deepest = [...pool].sort((a, b) => depth(b) - depth(a) || rank(a) - rank(b))[0];
  if (!deepest) return '/: invalid vector';
  const where = deepest.instancePath === '' ? '/' : deepest.instancePath;
  const here = pool.filter((e) => e.instancePath === deepest.instancePath && depth(e) === depth(deepest));
  // Alternatives (anyOf): a non-type error says more ("must match pattern"); type errors alone are joined.
  const best = deepest.keyword !== 'type' ? deepest : (here.find((e) => e.keyword !== 'type') ?? deepest);
  if (best.keyword === 'type') {
    const types = [...new Set(here.flatMap((e) => String((e.params as { type: string | string[] }).type).split(',')))];
    return `${where}: must be ${types.join(' or ')}`;
  }
  if (best.keyword === 'additionalProperties') {
    const extra = (best.params as { additionalProperty: string }).additionalProperty;
    const near = nearestName(extra, membersAt(best.instancePath));
    const hint = near !== undefined ? `did you mean "${near}"? ` : '';
    return `${where}: unknown member "${extra}" (${hint}vector objects are closed; vectors/GRAMMAR.md defines every member and schema/vectors.schema.json states them)`;
  }
  if (best.keyword === 'required') {
    const missing = (best.params as { missingProperty: string }).missingProperty;
    return `${where}: missing required member "${missing}"`;
  }
  if (best.keyword === 'enum') {
    const allowed = (best.params as { allowedValues: unknown[] }).allowedValues;
    return `${where}: must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return `${where}: ${best.message ?? 'invalid'}`;
}

/** The members the vector schema admits for the object at `instancePath` (a JSON pointer into the vector). */
function membersAt(instancePath: string): string[] {
  const root = vectorSchema();
  const deref = (node: unknown): Record<string, unknown> | undefined => {
    let n = node;
    for (let hops = 0; hops < 16 && n !== null && typeof n === 'object' && typeof (n as { $ref?: unknown }).$ref === 'string'; hops++) {
      const ref = (n as { $ref: string }).$ref;
      n = ref.replace(/^#\/?/, '').split('/').filter((x) => x !== '').reduce<unknown>((at, k) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[k] : undefined), root);
    }
    return n !== null && typeof n === 'object' ? (n as Record<string, unknown>) : undefined;
  };
  let node = deref(root);
  for (const raw of instancePath.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const props = node?.properties as Record<string, unknown> | undefined;
    if (props && Object.prototype.hasOwnProperty.call(props, seg)) node = deref(props[seg]);
    else if (node?.items !== undefined && /^[0-9]+$/.test(seg)) node = deref(node.items);
    else if (node?.additionalProperties !== undefined && typeof node.additionalProperties === 'object') node = deref(node.additionalProperties);
    else return [];
  }
  const props = node?.properties;
  return props !== null && typeof props === 'object' ? Object.keys(props) : [];
}

/** Levenshtein distance (insert, delete, substitute: 1 each). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The candidate nearest to `name` (case-insensitive edit distance), when it is near enough to be a likely typo:
 * at most a third of the name's length (at least 1, at most 3) edits away. Ties go to the first candidate.
 */
export function nearestName(name: string, candidates: readonly string[]): string | undefined {
  const limit = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  let best: { name: string; d: number } | undefined;
  for (const c of candidates) {
    const d = editDistance(name.toLowerCase(), c.toLowerCase());
    if (d <= limit && (best === undefined || d < best.d)) best = { name: c, d };
  }
  return best?.name;
}

/**
 * `validate`'s naming rule: a vector file's name (without .json) is its id, or its id followed by "-" and more
 * (GRAMMAR.md §1, vectors/README.md). One problem per misnamed file, naming the file and the id.
 */
export function fileNameProblems(vectors: readonly LoadedVector[]): string[] {
  const problems: string[] = [];
  for (const lv of vectors) {
    const base = path.basename(lv.file).replace(/\.json$/, '');
    const id = lv.vector.id;
    if (base !== id && !base.startsWith(`${id}-`))
      problems.push(`${display(lv.file)}: the file name does not start with its id "${id}"; name it ${id}.json (or ${id}-<more>.json)`);
  }
  return problems;
}

/** The rules the schema cannot state (GRAMMAR.md §12). */
function semanticProblem(v: Vector): string | undefined {
  const hasOne = v.interceptor_script !== undefined;
  const hasMany = v.interceptor_scripts !== undefined;
  if (hasOne === hasMany) return '/: exactly one of "interceptor_script" or "interceptor_scripts" is required (HARNESS.md §4)';
  const lists = hasMany ? v.interceptor_scripts! : [v.interceptor_script!];
  for (const [i, rules] of lists.entries()) {
    for (const [j, rule] of rules.entries()) {
      const ptr = hasMany ? `/interceptor_scripts/${i}/${j}` : `/interceptor_script/${j}`;
      const hasReturn = Object.prototype.hasOwnProperty.call(rule, 'return');
      if (hasReturn === (rule.fault !== undefined)) return `${ptr}: a rule has exactly one of "return" or "fault" (HARNESS.md §4)`;
      if (rule.unprojectable !== undefined && (rule.return === null || typeof rule.return !== 'object' || Array.isArray(rule.return) || isLosslessNumberLike(rule.return)))
        return `${ptr}/unprojectable: needs an object "return" (a verdict) to add the value JSON cannot carry to, and never goes with "fault" (GRAMMAR.md §3)`;
    }
  }
  for (const [i, rule] of (v.approval_script ?? []).entries()) {
    const r = rule.resolve as Record<string, unknown>;
    if ('fault' in r) {
      if (Object.keys(r).length !== 1) return `/approval_script/${i}/resolve: a fault resolve carries only "fault" (HARNESS.md §4)`;
    } else if (!('outcome' in r)) return `/approval_script/${i}/resolve: missing required member "outcome"`;
  }
  if (v.scenario.input !== undefined && v.scenario.inputs !== undefined) return '/scenario: give "input" or "inputs", not both';
  if (v.scenario.input === undefined && v.scenario.inputs === undefined) return '/scenario: missing required member "input"';
  const outputs = outputsProblem(v, v.expect.outputs, '/expect/outputs');
  if (outputs !== undefined) return outputs;
  if (v.composition) {
    const consulted = PROFILE_KNOBS[v.composition.profile as Profile] ?? [];
    for (const knob of ['on_approval', 'on_disagreement', 'on_transform_conflict'] as Knob[]) {
      if (v.composition[knob] !== undefined && !consulted.includes(knob))
        return `/composition/${knob}: profile ${v.composition.profile} never consults ${knob} (§7.2, §10.3)`;
    }
  }
  const streamProblem = streamingProblem(v);
  if (streamProblem !== undefined) return streamProblem;
  const pathProblem = dottedPathProblem(v);
  if (pathProblem !== undefined) return pathProblem;
  // §13.1: a vector-level posture gate names registered postures and their values only.
  for (const [name, value] of Object.entries(v.postures ?? {})) {
    if (!isPostureName(name)) return `/postures/${name}: unknown posture (known: ${POSTURE_NAMES.join(', ')})`;
    const values: readonly string[] = POSTURES[name].values;
    if (!values.includes(value)) return `/postures/${name}: ${JSON.stringify(value)} is not one of ${values.join(', ')} (${POSTURES[name].clause})`;
  }
  // A reading gate names registered contested readings (src/core/readings.ts) and their values only.
  for (const [name, value] of Object.entries(v.readings ?? {})) {
    if (!isReadingName(name)) return `/readings/${name}: unknown reading (known: ${READING_NAMES.join(', ')})`;
    const values: readonly string[] = READINGS[name].values;
    if (!values.includes(value)) return `/readings/${name}: ${JSON.stringify(value)} is not one of ${values.join(', ')} (${READINGS[name].clause})`;
  }
  // §6.3: what no record may contain must not be something a scripted verdict or resolution could put there itself.
  const scripts = stringifyLossless([v.interceptor_script ?? null, v.interceptor_scripts ?? null, v.approval_script ?? null]);
  for (const [i, s] of (v.expect.records_must_not_contain ?? []).entries()) {
    if (scripts.includes(s)) return `/expect/records_must_not_contain/${i}: ${JSON.stringify(s)} occurs in the vector's interceptor or approval script, whose verdicts a record may carry as written`;
  }
  const byOutcome = v.expect.run_outcome_by_posture;
  if (byOutcome && byOutcome.outcomes.continue !== undefined && byOutcome.outcomes.continue !== v.expect.run_outcome)
    return `/expect/run_outcome_by_posture/outcomes/continue: "${byOutcome.outcomes.continue}" must equal expect.run_outcome "${v.expect.run_outcome}" (HARNESS.md §4)`;
  return byPostureProblem(v) ?? postureCaseMemberProblem(v);
}

/** Per-turn outputs need multi_turn inputs, one output per turn. */
function outputsProblem(v: Vector, outputs: unknown[] | undefined, ptr: string): string | undefined {
  if (outputs === undefined) return undefined;
  if (v.scenario.inputs === undefined) return `${ptr}: per-turn outputs need scenario.inputs (multi_turn)`;
  if (outputs.length !== v.scenario.inputs.length) return `${ptr}: ${outputs.length} outputs for ${v.scenario.inputs.length} inputs; give one per turn`;
  return undefined;
}

/** A by_posture case's members obey the rules of the same top-level members. */
function postureCaseMemberProblem(v: Vector): string | undefined {
  const member = v.expect.by_reading !== undefined ? 'by_reading' : 'by_posture';
  for (const [value, c] of Object.entries(v.expect[member]?.cases ?? {})) {
    const ptr = `/expect/${member}/cases/${value}`;
    const p =
      outputsProblem(v, c.outputs, `${ptr}/outputs`) ??
      interceptionPathProblem(c.interceptions ?? [], `${ptr}/interceptions`) ??
      recordPathProblem(c.records ?? [], `${ptr}/records`);
    if (p !== undefined) return p;
  }
  return undefined;
}

/** GRAMMAR.md §2 (mock_faults): a failing response's members that contradict each other. */
function mockFaultProblem(r: JsonObject, ptr: string): string | undefined {
  if (r.fault_after !== undefined) {
    if (r.fault === undefined || !Array.isArray(r.stream)) return `${ptr}/fault_after: needs "fault" and "stream" (how many chunks a failing stream delivers before it fails, GRAMMAR.md §9.1)`;
    if ((r.fault_after as number) > r.stream.length) return `${ptr}/fault_after: ${String(r.fault_after)} is more than the ${r.stream.length} chunks the stream lists (GRAMMAR.md §9.1)`;
  }
  if (r.fault === undefined) return undefined;
  if (r.stream_truncated !== undefined) return `${ptr}/stream_truncated: a failing stream (fault) ends by failing, not by dying quietly; give one of the two (GRAMMAR.md §9.1)`;
  if (r.unprojectable !== undefined) return `${ptr}/unprojectable: a failing model call (fault) returns no response, so it cannot also be unprojectable; give one of the two (GRAMMAR.md §2)`;
  return undefined;
}

/** GRAMMAR.md §9 and the CTK's stream/projection extensions: what the schema cannot state (§12). */
function streamingProblem(v: Vector): string | undefined {
  for (const [i, m] of (v.scenario.model_script ?? []).entries()) {
    const r = m.respond as JsonObject;
    const ptr = `/scenario/model_script/${i}/respond`;
    if (r.stream_truncated !== undefined && r.stream === undefined) return `${ptr}/stream_truncated: needs "stream" (the chunks delivered before the stream dies, GRAMMAR.md §9.1)`;
    const faultProblem = mockFaultProblem(r, ptr);
    if (faultProblem !== undefined) return faultProblem;
    if (Array.isArray(r.stream)) {
      if (typeof r.content !== 'string') return `${ptr}/content: a streamed response's content is the text its chunks concatenate to (GRAMMAR.md §9.1)`;
      const joined = (r.stream as string[]).join('');
      // A complete stream concatenates to content; a truncated or failing one delivers a prefix of it at most.
      const partial = r.stream_truncated === true || r.fault !== undefined;
      if (partial ? !r.content.startsWith(joined) : joined !== r.content)
        return `${ptr}/stream: the chunks concatenate to ${JSON.stringify(joined)}, which ${partial ? 'is not a prefix of' : 'is not'} content ${JSON.stringify(r.content)} (GRAMMAR.md §9.1)`;
      if (r.unprojectable !== undefined) return `${ptr}/unprojectable: a streamed response delivers text chunks; give unprojectable on a plain response`;
    }
    if (r.unprojectable !== undefined && (r.content === null || typeof r.content !== 'object')) return `${ptr}/unprojectable: needs an object content to add the unprojectable member to (HARNESS.md §4)`;
  }
  for (const [i, tool] of (v.scenario.tools ?? []).entries()) {
    for (const [j, b] of tool.behavior.entries()) {
      const r = b.return as unknown;
      if (b.unprojectable !== undefined && (r === null || typeof r !== 'object' || Array.isArray(r)))
        return `/scenario/tools/${i}/behavior/${j}/unprojectable: needs an object "return" to add the unprojectable member to (HARNESS.md §4)`;
      if (b.fault !== undefined && b.unprojectable !== undefined)
        return `/scenario/tools/${i}/behavior/${j}/fault: a tool that fails returns no value, so it cannot also be unprojectable; give one of the two (GRAMMAR.md §2)`;
      if (b.fault !== undefined && b.is_error !== undefined)
        return `/scenario/tools/${i}/behavior/${j}/is_error: a tool that fails (fault) returns no result to mark as an error; leave is_error out (GRAMMAR.md §2)`;
    }
  }
  for (const [i, tool] of (v.scenario.tools ?? []).entries()) {
    for (const [j, b] of tool.behavior.entries()) {
      // §12.2 probe: invocations can only meet if the host is asked to run them concurrently.
      if (b.rendezvous !== undefined && v.scenario.parallel_tools !== true)
        return `/scenario/tools/${i}/behavior/${j}/rendezvous: needs scenario.parallel_tools true (a rendezvous probes concurrent tool calls, GRAMMAR.md §2)`;
    }
  }
  const stream = usesStream(v);
  if (v.stream_mediation !== undefined && !stream) return '/stream_mediation: only a vector with a respond.stream has a stream discipline';
  if (v.stream_mediation !== undefined && (v.capabilities ?? []).includes('incremental_output'))
    return '/stream_mediation: an incremental_output vector is incremental by definition; stream_mediation is for the others';
  return undefined;
}

/** Every dotted path in match/context/assert/absent/present must parse (GRAMMAR.md §7.2), records[].match included. */
function dottedPathProblem(v: Vector): string | undefined {
  const lists = v.interceptor_scripts ?? [v.interceptor_script ?? []];
  const many = v.interceptor_scripts !== undefined;
  for (const [i, rules] of lists.entries())
    for (const [j, rule] of rules.entries()) {
      const p = dottedPathsProblem(Object.keys(rule.match ?? {}), many ? `/interceptor_scripts/${i}/${j}/match` : `/interceptor_script/${j}/match`);
      if (p) return p;
    }
  for (const [i, rule] of (v.approval_script ?? []).entries()) {
    const p = dottedPathsProblem(Object.keys(rule.match ?? {}), `/approval_script/${i}/match`);
    if (p) return p;
  }
  return interceptionPathProblem(v.expect.interceptions, '/expect/interceptions') ?? recordPathProblem(v.expect.records ?? [], '/expect/records');
}

/** Every dotted path an expected interception's `context` names parses. */
function interceptionPathProblem(interceptions: readonly ExpectedInterception[], ptr: string): string | undefined {
  for (const [i, x] of interceptions.entries()) {
    const p = dottedPathsProblem(Object.keys(x.context ?? {}), `${ptr}/${i}/context`);
    if (p) return p;
  }
  return undefined;
}

/** The dotted paths of expected records (`match`, `assert`, `absent`, `present`) must parse; `index` and `match` do not combine. */
function recordPathProblem(records: readonly ExpectedRecord[], ptr: string): string | undefined {
  for (const [i, r] of records.entries()) {
    // GRAMMAR.md §5.5: a record is taken by index, by match or by the scan; index and match do not combine.
    if (r.index !== undefined && r.match !== undefined) return `${ptr}/${i}: give "index" or "match", not both (GRAMMAR.md §5.5)`;
    const p =
      dottedPathsProblem(Object.keys(r.match ?? {}), `${ptr}/${i}/match`) ??
      dottedPathsProblem(Object.keys(r.assert ?? {}), `${ptr}/${i}/assert`) ??
      dottedPathsProblem(r.absent ?? [], `${ptr}/${i}/absent`) ??
      dottedPathsProblem(r.present ?? [], `${ptr}/${i}/present`);
    if (p) return p;
  }
  return undefined;
}

function dottedPathsProblem(paths: Iterable<string>, ptr: string): string | undefined {
  for (const p of paths) {
    const r = tryParseDottedPath(p);
    if (!r.ok) return `${ptr}: ${JSON.stringify(p)} is not a valid dotted path (${r.detail})`;
  }
  return undefined;
}

export interface VectorFilters {
  /** Id or title matches. */
  match?: RegExp;
  /** Of one of these parts, or a sub-part of one ("a" selects "a/b"). */
  parts?: readonly string[];
  /** Id or title does not match. */
  excludeMatch?: RegExp;
  /** Of none of these parts (nor a sub-part of one). */
  excludeParts?: readonly string[];
  /** Needs at least one of these capabilities (LoadedVector.requiredCapabilities: declared or implied). */
  capabilities?: readonly string[];
}

/** Is `part` the part `p` or one of its sub-parts? */
export function inPart(part: string, p: string): boolean {
  return part === p || part.startsWith(p + '/');
}

/** The vectors a run selects: every given filter holds (the order is kept). */
export function selectVectors(vectors: readonly LoadedVector[], filters: VectorFilters): LoadedVector[] {
  const { match, parts, excludeMatch, excludeParts, capabilities } = filters;
  const titled = (re: RegExp, lv: LoadedVector) => re.test(lv.vector.id) || re.test(lv.vector.title);
  let out = [...vectors];
  if (match !== undefined) out = out.filter((lv) => titled(match, lv));
  if (parts && parts.length > 0) out = out.filter((lv) => parts.some((p) => inPart(lv.part, p)));
  if (excludeMatch !== undefined) out = out.filter((lv) => !titled(excludeMatch, lv));
  if (excludeParts && excludeParts.length > 0) out = out.filter((lv) => !excludeParts.some((p) => inPart(lv.part, p)));
  if (capabilities && capabilities.length > 0) out = out.filter((lv) => capabilities.some((c) => lv.requiredCapabilities.includes(c)));
  return out;
}

/** For `list` and reports: a vector and everything about it a reader wants to see. */
export function describeVector(lv: LoadedVector): { id: string; title: string; part: string; spec_clause: string; capabilities: string[]; file: string } {
  return {
    id: lv.vector.id,
    title: lv.vector.title,
    part: lv.part,
    spec_clause: lv.vector.spec_clause,
    capabilities: lv.requiredCapabilities,
    file: display(lv.file),
  };
}
