// The cross-check: the recording held to what the CTK's mocks saw (issue 30). Interceptors govern what really
// happens only if what a host shows them is what its model and tools receive and return: §4.2 (messages are what the
// model receives, tool_call.args what the tool is called with, response/tool_result what came back), §4.3 (a
// transform's write-back is what the action proceeds with), §6 (allow: unchanged; deny: the action does not happen).
// Each mock call is paired with its emission by the emission clock (mocks.ts `at`: how many contexts the first
// interceptor had received when the mock was called). Runs on every vector with at least one interceptor (without
// one, nothing is recorded to compare).
import { deepEqual } from '../core/json.js';
import { parseTargetPath, setPath } from '../core/paths.js';
import { TARGET_FIELD, type InterceptionPoint, type Json, type JsonObject } from '../core/types.js';
import { getDotted } from '../core/paths.js';
import type { RunReport } from '../harness/contract.js';
import { effectiveLayout, type ConversationLayout } from '../harness/layout.js';
import type { Failure } from '../results/model.js';
import { decideInterceptor } from './decide.js';
import { brief, isLosslessNumber } from './json.js';
import type { MockLog } from './mocks.js';
import { interceptorRuleLists, type Vector } from './vector.js';

export interface CrossCheckInput {
  vector: Vector;
  report: RunReport;
  recording: JsonObject[];
  mocks: MockLog;
  /** The host's declared conversation layout (HARNESS.md): how it renders what the mocks returned (null_answer). */
  layout?: Partial<ConversationLayout>;
  /** Model calls answered with several post_model_call emissions (incremental_output, §12.1): their response is not one context. */
  segmentedCalls?: ReadonlySet<number>;
  /**
   * The host declares `tool_error_values` (HARNESS.md): a failing tool's error value is its post_tool_call value.
   * Without it a failed tool result is held to is_error only (a framework whose tools fail by raising cannot carry it).
   */
  toolErrorValues?: boolean;
}

type Check = 'model_calls' | 'model_messages' | 'model_response' | 'tool_calls' | 'tool_args' | 'tool_result' | 'release' | 'blocked';

const obj = (v: unknown): JsonObject | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !isLosslessNumber(v) ? (v as JsonObject) : undefined;
const seqOf = (v: unknown): number | undefined => {
  const s = obj(v)?.sequence;
  if (typeof s === 'number') return s;
  if (isLosslessNumber(s)) return Number((s as unknown as { value: string }).value);
  return undefined;
};

/** What the verdict of one emission left of its target: unchanged, transformed (the value), blocked, or unknown to the CTK. */
type Verdicted = { kind: 'unchanged' } | { kind: 'transformed'; target: Json } | { kind: 'blocked'; reason: string } | { kind: 'unknown' };

/** Every cross-check failure; empty when the vector registers no interceptor (the recording is then empty). */
export function checkCrossCheck(o: CrossCheckInput): Failure[] {
  const rules = interceptorRuleLists(o.vector);
  if (rules.length === 0) return [];
  const records = (Array.isArray(o.report.records) ? o.report.records : []) as JsonObject[];
  const bySeq = new Map<number, JsonObject>();
  for (const r of records) {
    const s = seqOf(r);
    if (s !== undefined && !bySeq.has(s)) bySeq.set(s, r);
  }
  const emptyText = effectiveLayout(o.layout).null_answer === 'empty_text';
  // Emissions a host recorded without delivering them (§6.3 context_invalid: no interceptor saw a context). In
  // evaluate_only the action still proceeds (§8), so a mock call may answer one; in enforce it is a deny (§6).
  const delivered = new Set(o.recording.map(seqOf));
  const undelivered = records.filter((r) => !delivered.has(seqOf(r)));
  const consumed = new Set<JsonObject>();
  /** The first unconsumed undelivered record of `point` whose sequence lies strictly between `lo` and `hi`. */
  const takeUndelivered = (point: string, lo: number | undefined, hi: number | undefined): JsonObject | undefined => {
    const r = undelivered.find((u) => !consumed.has(u) && u.interception_point === point && seqOf(u)! > (lo ?? -Infinity) && seqOf(u)! < (hi ?? Infinity));
    if (r) consumed.add(r);
    return r;
  };
  const undeliveredBlocks = (r: JsonObject) => r.mode !== 'evaluate_only' && obj(r.verdict)?.decision === 'deny';
  const f: Failure[] = [];
  const fail = (check: Check, clause: string, message: string, expected: unknown, got: unknown, path?: string) =>
    f.push({ clause, check: `invariant.crosscheck.${check}`, message, expected, got, ...(path ? { path } : {}) });

  /** The target as the verdict of the emission at recording[i] left it (§6; §4.3 for a transform). */
  const verdicted = (i: number): Verdicted => {
    const ctx = o.recording[i]!;
    const rec = bySeq.get(seqOf(ctx) ?? -1);
    const verdict = obj(rec?.verdict);
    if (!rec || !verdict) return { kind: 'unknown' };
    if (rec.mode === 'evaluate_only') return { kind: 'unchanged' }; // §8: every action proceeds as if allowed
    if (verdict.decision === 'deny') return { kind: 'blocked', reason: String(verdict.reason ?? '') };
    // An approval that lifted a deny, or a fold of several verdicts, leaves a context the CTK does not rebuild: not judged.
    const each = (Array.isArray(rec.verdicts) ? rec.verdicts : []).map(obj);
    const transforms = each.filter((v) => v?.decision === 'transform');
    if (each.some((v) => v?.decision !== 'allow' && v?.decision !== 'transform')) return { kind: 'unknown' };
    if (verdict.decision === 'allow') return transforms.length === 0 ? { kind: 'unchanged' } : { kind: 'unknown' };
    if (verdict.decision !== 'transform') return { kind: 'unknown' };
    // The transform the CTK's own scripted interceptor returned: only when exactly one did, and the record names its path.
    const index = transforms.length === 1 ? transforms[0]!.index : undefined;
    if (typeof index !== 'number' || rules[index] === undefined) return { kind: 'unknown' };
    const action = decideInterceptor(rules[index]!, ctx);
    const body = action.kind === 'return' ? obj(obj(action.value)?.transform) : undefined;
    if (!body || !deepEqual(body.path, obj(verdict.transform)?.path)) return { kind: 'unknown' };
    const parsed = parseTargetPath(body.path);
    if (!parsed.ok) return { kind: 'unknown' };
    const set = setPath((ctx.target ?? null) as Json, parsed.segments, (body.value ?? null) as Json);
    return set.ok ? { kind: 'transformed', target: set.root } : { kind: 'unknown' };
  };
  /** The aliased field (§4.3) of the emission at recording[i] after its verdict, or undefined when the CTK cannot tell. */
  const afterVerdict = (i: number): { value: Json; how: string } | undefined => {
    const v = verdicted(i);
    const ctx = o.recording[i]!;
    if (v.kind === 'unchanged') {
      const got = getDotted(ctx, TARGET_FIELD[ctx.interception_point as InterceptionPoint]);
      return got.found ? { value: got.value as Json, how: 'as shown to interceptors (allow: unchanged, §6)' } : undefined;
    }
    if (v.kind === 'transformed') return { value: v.target, how: 'after its transform (§4.3, §6)' };
    return undefined;
  };
  const at = (point: string, from: number, to: number, pick?: (c: JsonObject) => boolean): number[] => {
    const out: number[] = [];
    for (let i = Math.max(0, from); i < Math.min(to, o.recording.length); i++) {
      const c = o.recording[i]!;
      if (c.interception_point === point && (!pick || pick(c))) out.push(i);
    }
    return out;
  };
  const isBlocked = (i: number) => verdicted(i).kind === 'blocked';
  const label = (i: number) => `${String(o.recording[i]!.interception_point)} (sequence ${String(seqOf(o.recording[i]))})`;

  // ---- model calls: each one answers exactly one unblocked pre_model_call, with what its verdict left (§4.2, §4.3, §6)
  let prev = -1;
  const answered = new Set<number>();
  for (const answer of o.mocks.model_answers) {
    if (answer.at < 0) continue;
    const received = o.mocks.model_calls[answer.call];
    const pres = at('pre_model_call', prev + 1, answer.at);
    // A blocked one since the last model call is the .blocked finding only when it is the latest (a later turn may follow it).
    const open = pres.filter((i) => !isBlocked(i));
    const last = pres[pres.length - 1];
    if (last !== undefined && isBlocked(last)) {
      fail('blocked', '6', `the mock model was called (call ${answer.call}) after ${label(last)} was denied; a denied pre_model_call's call is not made (§6)`, 'no model call', received?.messages);
    }
    if (open.length === 0) {
      // A pre_model_call recorded but never delivered (context_invalid) since the previous call: nothing was shown to
      // compare; the call is the action proceeding in evaluate_only (§8), a call made despite the deny in enforce (§6).
      const skipped = takeUndelivered('pre_model_call', seqOf(o.recording[prev]), seqOf(o.recording[answer.at]));
      if (skipped) {
        if (undeliveredBlocks(skipped)) fail('blocked', '6', `the mock model was called (call ${answer.call}) after pre_model_call (sequence ${String(seqOf(skipped))}) was denied without dispatch (${String(obj(skipped.verdict)?.reason)}); a denied pre_model_call's call is not made (§6, §6.3)`, 'no model call', received?.messages);
        prev = answer.at - 1;
        continue;
      }
      if (last === undefined || !isBlocked(last)) {
        fail('model_calls', '3.1', `the mock model was called (call ${answer.call}) with no unblocked pre_model_call before it since the previous call; every model call is announced by exactly one (§3.1, §4.2)`, 'one unblocked pre_model_call', pres.map(label));
      }
      continue;
    }
    if (open.length > 1) {
      fail('model_calls', '3.1', `${open.slice(0, -1).map(label).join(', ')} had no model call of its own before model call ${answer.call}: each unblocked pre_model_call is followed by its one model call (§3.1)`, 'one unblocked pre_model_call per model call', open.map(label));
    }
    const i = open[open.length - 1]!;
    answered.add(i);
    prev = i;
    const want = afterVerdict(i);
    if (want && received && !deepEqual(received.messages, want.value)) {
      fail('model_messages', '4.2, 4.3, 6', `model call ${answer.call} received messages other than ${label(i)}'s ${want.how}: interceptors were shown ${brief(want.value, 200)}, the model received ${brief(received.messages, 200)}`, want.value, received.messages, `model_calls[${answer.call}].messages`);
    }
    // What the model answered is what post_model_call shows, before its verdict (§4.2).
    if (o.segmentedCalls?.has(answer.call) || (answer.kind !== 'response' && answer.kind !== 'stream')) continue;
    const post = at('post_model_call', answer.at, o.recording.length)[0];
    const nextPre = at('pre_model_call', answer.at, o.recording.length)[0];
    if (post === undefined || (nextPre !== undefined && nextPre < post)) continue; // not dispatched (context_invalid): other invariants judge it
    const shown = obj(o.recording[post]!.response);
    const mine = answer.response;
    // null_answer=empty_text: a framework whose model interface is text holds no null content; null and "" are one
    // value there, with or without tool calls (HARNESS.md).
    const blank = (c: unknown) => c === null || c === undefined || c === '';
    const textAnswer = emptyText && shown !== undefined && blank(mine.content) && blank(shown.content);
    const same = shown !== undefined && (textAnswer || deepEqual(shown.content ?? null, mine.content)) && deepEqual(shown.tool_calls ?? [], mine.tool_calls) && deepEqual(shown.finish_reason, mine.finish_reason);
    if (!same) {
      fail('model_response', '4.2', `${label(post)} shows a response other than the one the mock model returned to call ${answer.call}${answer.kind === 'stream' ? ' (its stream assembled)' : ''}: the model returned ${brief(mine, 200)}, interceptors were shown ${brief(shown, 200)}`, mine, shown ?? null, `recording[${post}].response`);
    }
  }
  for (const i of at('pre_model_call', 0, o.recording.length)) {
    if (answered.has(i) || isBlocked(i) || verdicted(i).kind === 'unknown') continue;
    // An unblocked pre_model_call (enforce) must reach the model; one after the last answered call is reported once here.
    if (o.mocks.model_answers.some((a) => a.at > i && a.at >= 0)) continue; // reported above as a call of several
    fail('model_calls', '3.1, 6', `${label(i)} was not blocked, yet the mock model was never called for it (§6: the action proceeds)`, 'a model call', 'none');
  }

  // ---- tool calls: name and args as the pre_tool_call verdict left them; the result as post_tool_call shows it
  for (const out of o.mocks.tool_outcomes) {
    if (out.at < 0) continue;
    const invoked = o.mocks.tool_invocations[out.invocation]!;
    const sameId = (c: JsonObject) => deepEqual(obj(c.tool_call)?.id, invoked.id);
    const pre = at('pre_tool_call', 0, out.at, sameId).pop();
    if (pre === undefined) {
      // A pre_tool_call recorded but never delivered (context_invalid): its record names no tool call, so any such
      // record before the invocation answers it (§8 in evaluate_only; in enforce the invocation is a §6 breach).
      const skipped = takeUndelivered('pre_tool_call', undefined, seqOf(o.recording[out.at]));
      if (skipped) {
        if (undeliveredBlocks(skipped)) fail('blocked', '6', `tool "${invoked.name}" was invoked after pre_tool_call (sequence ${String(seqOf(skipped))}) was denied without dispatch (${String(obj(skipped.verdict)?.reason)}); a denied tool call is not dispatched (§6, §6.3)`, 'no tool invocation', invoked);
        continue;
      }
      fail('tool_calls', '3.1, 4.2', `tool "${invoked.name}" was invoked (call id ${brief(invoked.id)}) with no pre_tool_call of that id before it (§3.1)`, 'a pre_tool_call of the same tool_call.id', 'none', `tool_invocations[${out.invocation}]`);
      continue;
    }
    const shownCall = obj(o.recording[pre]!.tool_call) ?? {};
    if (isBlocked(pre)) {
      fail('blocked', '6', `tool "${invoked.name}" was invoked after ${label(pre)} was denied; a denied tool call is not dispatched (§6)`, 'no tool invocation', invoked);
      continue;
    }
    if (!deepEqual(invoked.name, shownCall.name)) {
      fail('tool_calls', '4.2', `the tool invoked for ${label(pre)} is "${String(invoked.name)}", interceptors were shown "${String(shownCall.name)}"`, shownCall.name, invoked.name, `tool_invocations[${out.invocation}].name`);
    }
    const want = afterVerdict(pre);
    if (want && !deepEqual(invoked.args, want.value)) {
      fail('tool_args', '4.2, 4.3, 6', `tool "${invoked.name}" was invoked with args other than ${label(pre)}'s ${want.how}: interceptors were shown ${brief(want.value, 200)}, the tool received ${brief(invoked.args, 200)}`, want.value, invoked.args, `tool_invocations[${out.invocation}].args`);
    }
    if (out.kind !== 'returned' && out.kind !== 'raised') continue;
    const post = at('post_tool_call', out.at, o.recording.length, sameId)[0];
    if (post === undefined) continue; // a missing post_tool_call is invariant.ordering's finding
    const shown = obj(o.recording[post]!.tool_result);
    const failedOnly = out.kind === 'raised' || (out.result!.is_error === true && o.toolErrorValues === false);
    const ok = failedOnly ? shown?.is_error === true : shown !== undefined && deepEqual(shown.value ?? null, out.result!.value) && deepEqual(shown.is_error, out.result!.is_error);
    if (!ok) {
      const mine = out.kind === 'raised' ? { raised: true, is_error: true } : out.result;
      fail('tool_result', '4.2', `${label(post)} shows a tool_result other than what tool "${invoked.name}" ${out.kind === 'raised' ? 'raised (a tool error: is_error true)' : 'returned'}: the tool gave ${brief(mine, 200)}, interceptors were shown ${brief(shown, 200)}`, mine, shown ?? null, `recording[${post}].tool_result`);
    }
  }

  // ---- release: what each turn returns is its output as the verdict left it (§6)
  const inputs = at('input', 0, o.recording.length);
  const outputs = o.report.outputs;
  inputs.forEach((start, turn) => {
    const end = inputs[turn + 1] ?? o.recording.length;
    const out = at('output', start, end).pop();
    if (out === undefined) return;
    const returned = outputs !== undefined ? outputs[turn] : turn === inputs.length - 1 ? o.report.final_output : undefined;
    if (returned === undefined) return;
    const v = verdicted(out);
    if (v.kind === 'blocked') {
      if (returned !== null) fail('release', '6', `turn ${turn} returned ${brief(returned, 200)} although ${label(out)} was denied; a denied output is not returned (§6)`, null, returned);
      return;
    }
    const want = afterVerdict(out);
    const content = want === undefined ? undefined : (obj(want.value)?.content ?? null);
    if (want && !deepEqual(returned, content)) {
      fail('release', '6, 4.3', `turn ${turn} returned something other than ${label(out)}'s output ${want.how}: the verdict left ${brief(content, 200)}, the turn returned ${brief(returned, 200)}`, content, returned, outputs !== undefined ? `outputs[${turn}]` : 'final_output');
    }
  });
  return f;
}
