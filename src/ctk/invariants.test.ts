import t from 'tap';
import type { JsonObject } from '../core/types.js';
import { checkFoldTruncated, checkOneRecordPerEmission, checkOrdering, checkPayloadFree, checkSequence, targetStrings } from './invariants.js';
import { baseVector } from './test-vectors.test.util.js';
import type { Vector } from './vector.js';

let seq = 0;
const rec = (point: string, decision = 'allow', extra: JsonObject = {}): JsonObject => ({ interception_point: point, mode: 'enforce', verdict: { decision }, sequence: seq++, ...extra });
const ctxFor = (r: JsonObject, toolId?: string): JsonObject => ({ interception_point: r.interception_point as string, sequence: r.sequence as number, ...(toolId ? { tool_call: { id: toolId, name: 'f', args: {} } } : {}) });
const messages = (fs: { message: string }[]) => fs.map((f) => f.message).join(' | ');

t.test('§3.1 ordering: pairing, blocked pres, input first, startup deny', async (t) => {
  seq = 0;
  const ok = [rec('agent_startup'), rec('input'), rec('pre_model_call'), rec('post_model_call'), rec('pre_model_call', 'deny'), rec('output'), rec('agent_shutdown')];
  t.same(checkOrdering(ok, []), [], 'a blocked pre_model_call needs no post');

  seq = 0;
  const missingPost = [rec('agent_startup'), rec('input'), rec('pre_model_call'), rec('output'), rec('agent_shutdown')];
  t.match(messages(checkOrdering(missingPost, [])), /pre_model_call at record 2 was not blocked but no post_model_call followed it/);

  seq = 0;
  const orphanPost = [rec('agent_startup'), rec('input'), rec('pre_model_call', 'deny'), rec('post_model_call'), rec('output'), rec('agent_shutdown')];
  t.match(messages(checkOrdering(orphanPost, [])), /post_model_call at record 3 has no unblocked pre_model_call/);

  seq = 0;
  const beforeInput = [rec('agent_startup'), rec('pre_model_call'), rec('post_model_call'), rec('input'), rec('output'), rec('agent_shutdown')];
  t.match(messages(checkOrdering(beforeInput, [])), /pre_model_call at record 1 does not result from any earlier input/);

  seq = 0;
  const afterStartupDeny = [rec('agent_startup', 'deny'), rec('input'), rec('agent_shutdown')];
  const f = checkOrdering(afterStartupDeny, []);
  t.ok(f.some((x) => x.clause === '6.1a'), 'startup deny followed by input is a §6.1a failure');
  seq = 0;
  t.same(checkOrdering([rec('agent_startup', 'deny'), rec('agent_shutdown')], []), []);

  seq = 0;
  t.match(messages(checkOrdering([rec('input'), rec('agent_startup'), rec('agent_shutdown'), rec('agent_shutdown')], [])), /agent_startup must precede.*agent_shutdown must be emitted exactly once/);
  t.match(messages(checkOrdering([], [])), /no interception records/);
});

t.test('§3.1 tool pairing by tool_call.id, interleaved calls, no post after a blocked pre', async (t) => {
  seq = 0;
  const [s, i, preA, preB, postB, postA, o, d] = [rec('agent_startup'), rec('input'), rec('pre_tool_call'), rec('pre_tool_call'), rec('post_tool_call'), rec('post_tool_call'), rec('output'), rec('agent_shutdown')];
  const recording = [ctxFor(preA!, 'a'), ctxFor(preB!, 'b'), ctxFor(postB!, 'b'), ctxFor(postA!, 'a')];
  t.same(checkOrdering([s!, i!, preA!, preB!, postB!, postA!, o!, d!], recording), [], 'interleaved pairs match by id');

  seq = 0;
  const [s2, i2, pre, post, o2, d2] = [rec('agent_startup'), rec('input'), rec('pre_tool_call', 'deny'), rec('post_tool_call'), rec('output'), rec('agent_shutdown')];
  t.match(messages(checkOrdering([s2!, i2!, pre!, post!, o2!, d2!], [ctxFor(pre!, 'x'), ctxFor(post!, 'x')])), /tool_call\.id "x"\) is not allowed: its pre_tool_call was blocked/);

  seq = 0;
  const [s3, i3, p3, q3, o3, d3] = [rec('agent_startup'), rec('input'), rec('pre_tool_call'), rec('post_tool_call'), rec('output'), rec('agent_shutdown')];
  t.match(messages(checkOrdering([s3!, i3!, p3!, q3!, o3!, d3!], [ctxFor(p3!, 'x'), ctxFor(q3!, 'y')])), /post_tool_call at record 3 \(tool_call\.id "y"\)[\s\S]*pre_tool_call at record 2 \(tool_call\.id "x"\) was not blocked but no post_tool_call followed it/);

  seq = 0;
  const evalDeny = [rec('agent_startup'), rec('input'), rec('pre_tool_call', 'deny', { mode: 'evaluate_only' }), rec('post_tool_call', 'allow', { mode: 'evaluate_only' }), rec('output'), rec('agent_shutdown')];
  t.same(checkOrdering(evalDeny, []), [], 'in evaluate_only a deny does not block (§8)');
});

t.test('sequence: strictly increasing, or unique under parallel_tools; starts at 0', async (t) => {
  const r = (n: number, p = 'input'): JsonObject => ({ interception_point: p, sequence: n });
  const start = r(0, 'agent_startup');
  t.same(checkSequence([start, r(1), r(2)], [start, r(1)], false), []);
  t.match(checkSequence([start, r(2), r(1)], [], false)[0], { clause: '3.1', check: 'invariant.sequence', path: 'records[2].sequence' });
  t.match(checkSequence([], [start, r(1), r(1)], false)[0], { path: 'recording[2].sequence' }, 'the recording too (GRAMMAR.md §3.1)');
  t.same(checkSequence([start, r(2), r(1)], [], true), [], 'parallel: any order, unique');
  t.match(checkSequence([start, r(1), r(1)], [], true)[0], { clause: '12.2' });
  t.match(checkSequence([r(3, 'agent_startup'), r(4)], [], false)[0], { clause: '4.1', expected: 0 });
  t.match(checkSequence([start, { interception_point: 'input', sequence: 'one' }], [], false)[0], { clause: '4.1', path: 'records[1].sequence' });
});

t.test('payload-free: target strings only inside the members §10.3 keeps', async (t) => {
  const v = baseVector() as unknown as Vector;
  const strings = targetStrings(v);
  t.ok(strings.includes('product-forty-two'));
  t.ok(strings.includes('please multiply six by seven'));
  t.notOk(strings.includes('call-a'), 'ids are not target content');
  const vocab = targetStrings(baseVector({ scenario: { input: { content: 'sequential', role: 'user' } } }) as unknown as Vector);
  t.notOk(vocab.includes('sequential'), 'a part of the protocol vocabulary is not a needle');
  const clean: JsonObject = { interception_point: 'post_tool_call', verdict: { decision: 'deny', reason: 'saw product-forty-two', message: 'product-forty-two', warnings: [{ reason: 'product-forty-two' }] }, verdicts: [{ index: 0, decision: 'deny', reason: 'product-forty-two' }], session_id: 's' };
  t.same(checkPayloadFree([clean], v), []);
  const leaky: JsonObject = { ...clean, session_id: 'x-product-forty-two' };
  t.match(checkPayloadFree([leaky], v)[0], { clause: '10.3', check: 'invariant.payload_free', path: 'records[0].session_id' });
  const transformLeak: JsonObject = { interception_point: 'pre_tool_call', verdict: { decision: 'transform', transform: { path: '$target.b', value: 'replacement-value' } } };
  const tv = baseVector({ interceptor_script: [{ at: 'pre_tool_call', return: { decision: 'transform', transform: { path: '$target.b', value: 'replacement-value' } } }] }) as unknown as Vector;
  t.match(checkPayloadFree([transformLeak], tv)[0], { path: 'records[0].verdict.transform.value' });
});

t.test('one record per emission: order is checked, except across interleaved parallel tool calls', async (t) => {
  const r = (n: number, p: string): JsonObject => ({ interception_point: p, sequence: n, interceptors_registered: 1, verdict: { decision: 'allow' }, input_identity: null, enforced_identity: null });
  const records = [r(0, 'agent_startup'), r(2, 'pre_tool_call'), r(1, 'pre_tool_call'), r(3, 'agent_shutdown')];
  const recording = [r(0, 'agent_startup'), r(1, 'pre_tool_call'), r(2, 'pre_tool_call'), r(3, 'agent_shutdown')];
  const report = { outcome: 'completed' as const, final_output: null, records, identities: records.map(() => ({ input_identity: null, enforced_identity: null })) };
  t.match(checkOneRecordPerEmission(records, recording, 1, report)[0], { clause: '10.3', message: /not in emission order/ });
  t.same(checkOneRecordPerEmission(records, recording, 1, report, true), []);
  t.match(checkOneRecordPerEmission(records.slice(0, 3), recording, 1, { ...report, records: records.slice(0, 3), identities: report.identities.slice(0, 3) }, true)[0], { message: /saw agent_shutdown \(sequence 3\) but the host produced no record/ });
});

t.test('§10.3 fold_truncated: absent means false; true must be present when interceptors were skipped', async (t) => {
  const runAll = { profile: 'sequential/run_all' };
  const firstDeny = { profile: 'sequential/first_deny', on_approval: 'stop' };
  const summary = (n: number) => Array.from({ length: n }, (_, index) => ({ index, decision: 'allow' }));
  const record = (composition: JsonObject, invoked: number, registered: number, extra: JsonObject = {}): JsonObject =>
    rec('pre_tool_call', 'deny', { composition, verdicts: summary(invoked), interceptors_registered: registered, ...extra });
  t.same(checkFoldTruncated([record(runAll, 3, 3)]), [], 'run_all, nothing skipped, member absent: fine');
  t.same(checkFoldTruncated([record(runAll, 3, 3, { fold_truncated: false })]), [], 'run_all, nothing skipped, false: fine');
  t.match(messages(checkFoldTruncated([record(runAll, 3, 3, { fold_truncated: true })])), /fold_truncated true, yet every one of its 3 registered interceptors is in verdicts/);
  t.match(messages(checkFoldTruncated([record(runAll, 1, 3)])), /summarizes 1 of 3 registered interceptors, so some were never invoked, yet fold_truncated is absent/);
  t.match(messages(checkFoldTruncated([record(firstDeny, 1, 2, { fold_truncated: false })])), /yet fold_truncated is false/);
  t.same(checkFoldTruncated([record(firstDeny, 1, 2, { fold_truncated: true })]), []);
  t.same(checkFoldTruncated([record(firstDeny, 2, 2, { fold_truncated: true, resolved_by: 'approval' })]), [], 'an approved stop is the posture\'s to decide');
  t.same(checkFoldTruncated([record(runAll, 0, 2, { verdict: { decision: 'deny', reason: 'host_error:context_invalid' } })]), [], 'rejected before dispatch: not judged');
  t.same(checkFoldTruncated([record({ profile: 'parallel/strictest', on_transform_conflict: 'deny' }, 1, 2)]), [], 'parallel profiles: fold_truncated is not defined');
  t.match(messages(checkFoldTruncated([record(firstDeny, 0, 0, { fold_truncated: true })])), /yet no interceptor is registered, so none was skipped/);
  t.same(checkFoldTruncated([record(firstDeny, 0, 0, { fold_truncated: false }), record(runAll, 0, 0)]), [], 'none registered: false or absent');
  const undispatched = rec('agent_startup', 'deny', { composition: firstDeny, interceptors_registered: 0, fold_truncated: true });
  t.match(messages(checkFoldTruncated([undispatched])), /yet no interceptor is registered, so none was skipped/, 'none registered, rejected before dispatch (no verdicts): still judged');
});

t.test('§3.1 ordering under errored_model_call=none: only a call the script made fail may go without its post_model_call', async (t) => {
  seq = 0;
  const unpaired = [rec('agent_startup'), rec('input'), rec('pre_model_call'), rec('agent_shutdown')];
  t.same(checkOrdering(unpaired, [], new Set(), new Set([0])), [], 'model call 0 failed: its pre_model_call stands alone');
  t.match(messages(checkOrdering(unpaired, [], new Set(), new Set([1]))), /pre_model_call at record 2 was not blocked but no post_model_call followed it/, 'another call failing excuses nothing');
  seq = 0;
  const secondUnpaired = [rec('agent_startup'), rec('input'), rec('pre_model_call'), rec('pre_model_call'), rec('post_model_call'), rec('agent_shutdown')];
  t.same(checkOrdering(secondUnpaired, [], new Set(), new Set([0])), [], 'a failed call followed by the next call');
  t.match(messages(checkOrdering(secondUnpaired, [], new Set(), new Set([1]))), /pre_model_call at record 2 was not blocked/);
});
