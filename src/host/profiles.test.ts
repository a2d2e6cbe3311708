// §7.2–§7.6 composition profiles, §7.3 aggregation, §5.2 transform application, §8 evaluate_only.
import t from 'tap';
import { HOST_ERROR, type AgentContext } from '../core/index.js';
import { severity, selectWinner, unionLabels, unionWarnings } from './aggregate.js';
import { allow, answering, approving, deny, emitterWith, escalate, toolFields, transform } from './fixtures.test.util.js';

const runAll = { profile: 'sequential/run_all' as const };
const strictest = { profile: 'parallel/strictest' as const };
const unanimous = { profile: 'parallel/unanimous' as const };

t.test('§5.1 severity: deny > deny+approval > transform > allow', async (t) => {
  const order = [deny(), escalate(), transform('$target', 1), allow].map((v) => severity(v as never));
  t.same(order, [3, 2, 1, 0]);
});

t.test('§7.3 winner: block ties → lowest index; transform ties → last; allow → first', async (t) => {
  t.equal(selectWinner([allow, deny('a'), deny('b')] as never), 1);
  t.equal(selectWinner([escalate('a'), escalate('b')] as never), 0);
  t.equal(selectWinner([transform('$target.a', 1), transform('$target.b', 2), allow] as never), 1);
  t.equal(selectWinner([allow, allow] as never), 0);
  t.equal(selectWinner([escalate(), deny()] as never), 1, 'a plain deny dominates a liftable one');
});

t.test('§7.3 warnings: first-seen union, deduplicated by (reason, message)', async (t) => {
  const w = unionWarnings([
    { decision: 'allow', warnings: [{ reason: 'a' }, { reason: 'b', message: 'm' }] },
    { decision: 'deny', warnings: [{ reason: 'a' }, { reason: 'b' }, { reason: 'b', message: 'm' }] },
  ]);
  t.same(w, [{ reason: 'a' }, { reason: 'b', message: 'm' }, { reason: 'b' }]);
});

t.test('§7.3 result_labels: union from permit verdicts only', async (t) => {
  t.same(
    unionLabels([
      { decision: 'allow', result_labels: ['x', 'y'] },
      { decision: 'deny', result_labels: ['never'] },
      { decision: 'transform', transform: { path: '$target' }, result_labels: ['y', 'z'] },
    ]),
    ['x', 'y', 'z'],
  );
});

t.test('§7.3 combined verdict carries the unions; labels are dropped when the emission does not proceed (§5.4)', async (t) => {
  const e = emitterWith([answering({ decision: 'allow', warnings: [{ reason: 'w1' }], result_labels: ['l1'] }), answering({ decision: 'deny', reason: 'stop', warnings: [{ reason: 'w2' }] })], { composition: runAll });
  const em = await e.emit('pre_tool_call', toolFields());
  t.equal(em.verdict.reason, 'stop');
  t.same(em.record.verdict.warnings, [{ reason: 'w1' }, { reason: 'w2' }]);
  t.notOk('result_labels' in em.record.verdict);
  t.same(em.labels, {});
  const ok = await emitterWith([answering({ decision: 'allow', result_labels: ['l1'] }), answering({ decision: 'allow', result_labels: ['l2', 'l1'] })], { composition: runAll }).emit('pre_tool_call', toolFields());
  t.same(ok.record.verdict.result_labels, ['l1', 'l2']);
});

t.test('§7.4 fold-through: each interceptor sees its predecessors\' transforms (enforce)', async (t) => {
  const seen: AgentContext[] = [];
  const e = emitterWith([answering(transform('$target.url', 'safe')), answering(allow, seen)]);
  const em = await e.emit('pre_tool_call', toolFields({ url: 'evil' }));
  t.same(seen[0]!.target, { url: 'safe' });
  t.equal(em.verdict.decision, 'transform');
  t.equal(em.record.decided_by, 0);
  t.same(em.target, { url: 'safe' });
});

t.test('§7.4 first_deny: the first deny short-circuits and fold_truncated is true', async (t) => {
  let later = 0;
  const e = emitterWith([answering(deny('first')), { intercept: () => (later++, allow) }]);
  const em = await e.emit('pre_tool_call', toolFields());
  t.equal(later, 0);
  t.equal(em.record.fold_truncated, true);
  t.equal(em.record.decided_by, 0);
  t.same(em.record.verdicts, [{ index: 0, decision: 'deny', reason: 'first' }]);
});

t.test('§7.4 first_deny: no deny → the last transform wins; all allow → decided_by null, fold_truncated false', async (t) => {
  const e = emitterWith([answering(transform('$target.a', 1)), answering(transform('$target.a', 2)), answering(allow)]);
  const em = await e.emit('pre_tool_call', toolFields({ a: 0 }));
  t.equal(em.record.decided_by, 1);
  t.same(em.target, { a: 2 });
  const all = await emitterWith([answering(allow), answering(allow)]).emit('pre_tool_call', toolFields());
  t.equal(all.record.decided_by, null);
  t.equal(all.record.fold_truncated, false);
});

t.test('§7.4: a failed fold-transform is a deny (decided_by null) that short-circuits in both sequential profiles', async (t) => {
  for (const profile of ['sequential/first_deny', 'sequential/run_all'] as const) {
    let later = 0;
    const e = emitterWith([answering(transform('$target.nope.deeper', 1)), { intercept: () => (later++, allow) }], { composition: { profile } });
    const em = await e.emit('pre_tool_call', toolFields({ a: 1 }));
    t.equal(em.verdict.reason, HOST_ERROR.transform_invalid, profile);
    t.equal(em.record.decided_by, null);
    t.equal(em.record.fold_truncated, true);
    t.equal(later, 0);
    t.equal(em.proceed, false);
  }
});

t.test('§5.2: path not rooted at $target → transform_target_forbidden; $policy_target alias accepted; absent value = null', async (t) => {
  const f = await emitterWith([answering(transform('$.amount', 1))]).emit('pre_tool_call', toolFields());
  t.equal(f.verdict.reason, HOST_ERROR.transform_target_forbidden);
  const alias = await emitterWith([answering(transform('$policy_target.amount', 1))]).emit('pre_tool_call', toolFields({ amount: 9 }));
  t.same(alias.target, { amount: 1 });
  const nul = await emitterWith([answering({ decision: 'transform', transform: { path: '$target.amount' } })]).emit('pre_tool_call', toolFields({ amount: 9 }));
  t.same(nul.target, { amount: null });
  const other = await emitterWith([answering(transform('$target.amount', 1))]).emit('pre_tool_call', toolFields({ amount: 9, keep: 'me' }));
  t.same(other.target, { amount: 1, keep: 'me' }, 'nothing else modified');
});

t.test('§5.2: a replacement that breaks the point\'s shape (args no longer an object) is transform_invalid', async (t) => {
  const em = await emitterWith([answering(transform('$target', 'a string'))]).emit('pre_tool_call', toolFields());
  t.equal(em.verdict.reason, HOST_ERROR.transform_invalid);
  t.equal(em.proceed, false);
});

t.test('§4.3: a transform at agent_startup or agent_shutdown → transform_target_forbidden', async (t) => {
  const s = await emitterWith([answering(transform('$target.tools_registered', []))]).emit('agent_startup', { agent_init: { tools_registered: ['x'] } });
  t.equal(s.verdict.reason, HOST_ERROR.transform_target_forbidden);
  t.equal(s.record.decided_by, null);
  const d = await emitterWith([answering(transform('$target.reason', 'completed'))]).emit('agent_shutdown', { summary: { reason: 'error' } });
  t.equal(d.verdict.reason, HOST_ERROR.transform_target_forbidden);
  const p = await emitterWith([answering(transform('$target.reason', 'x'))], { composition: strictest }).emit('agent_shutdown', { summary: { reason: 'error' } });
  t.equal(p.verdict.reason, HOST_ERROR.transform_target_forbidden, 'also in parallel profiles');
});

t.test('§7.4 on_approval "stop": a permit resolution ends the emission; fold_truncated and resolved_by recorded', async (t) => {
  let later = 0;
  const e = emitterWith([answering(escalate()), { intercept: () => (later++, deny('would deny')) }], { resolver: approving() });
  const em = await e.emit('pre_tool_call', toolFields());
  t.equal(later, 0);
  t.equal(em.proceed, true);
  t.equal(em.record.resolved_by, 'approval');
  t.equal(em.record.fold_truncated, true);
  t.equal(em.record.decided_by, 0);
  t.equal(em.record.composition.on_approval, 'stop', 'default filled in');
});

t.test('§7.4 on_approval "resume": the permit substitutes and the fold continues; each later liftable deny is consulted', async (t) => {
  const log: unknown[] = [];
  const e = emitterWith([answering(escalate('a')), answering(escalate('b')), answering(allow)], { resolver: approving(allow, log), composition: { profile: 'sequential/first_deny', on_approval: 'resume' } });
  const em = await e.emit('pre_tool_call', toolFields());
  t.equal(log.length, 2, 'both liftable denies consulted');
  t.equal(em.proceed, true);
  t.equal(em.record.fold_truncated, false);
  t.equal(em.record.resolved_by, 'approval');
  const stopped = await emitterWith([answering(escalate('a')), answering(deny('plain')), answering(allow)], { resolver: approving(), composition: { profile: 'sequential/first_deny', on_approval: 'resume' } }).emit('pre_tool_call', toolFields());
  t.equal(stopped.verdict.reason, 'plain');
  t.equal(stopped.record.decided_by, 1);
  t.equal(stopped.record.fold_truncated, true);
  t.equal(stopped.record.resolved_by, 'approval');
});

t.test('§7.4 resume: an approved transform is applied and later interceptors see it', async (t) => {
  const seen: AgentContext[] = [];
  const e = emitterWith([answering(escalate()), answering(allow, seen)], { resolver: approving(transform('$target.amount', 500)), composition: { profile: 'sequential/first_deny', on_approval: 'resume' } });
  const em = await e.emit('pre_tool_call', toolFields({ amount: 840 }));
  t.same(seen[0]!.target, { amount: 500 });
  t.same(em.target, { amount: 500 });
});

t.test('§7.4 run_all: every interceptor runs past a decisive deny; severity-max aggregate; verdicts summarised', async (t) => {
  let ran = 0;
  const e = emitterWith([answering(transform('$target.a', 2)), answering(deny('d')), { name: 'third', intercept: () => (ran++, allow) }], { composition: runAll });
  const em = await e.emit('pre_tool_call', toolFields({ a: 1 }));
  t.equal(ran, 1);
  t.equal(em.verdict.reason, 'd');
  t.equal(em.record.decided_by, 1);
  t.equal(em.record.fold_truncated, false);
  t.same(em.record.verdicts, [{ index: 0, decision: 'transform' }, { index: 1, decision: 'deny', reason: 'd' }, { index: 2, decision: 'allow', name: 'third' }]);
  t.not(em.record.enforced_identity, em.record.input_identity, 'enforced identity reflects the folded context even on deny');
  t.same(em.target, { a: 1 }, 'folded transforms are discarded on a combined deny');
});

t.test('§7.4 run_all approval: consulted once, only when every deny is liftable', async (t) => {
  const log: unknown[] = [];
  const lifted = await emitterWith([answering(escalate('a')), answering(escalate('b'))], { composition: runAll, resolver: approving(allow, log) }).emit('pre_tool_call', toolFields());
  t.equal(log.length, 1);
  t.equal(lifted.proceed, true);
  t.equal(lifted.record.resolved_by, 'approval');
  t.equal(lifted.record.decided_by, 0);
  const log2: unknown[] = [];
  const plain = await emitterWith([answering(escalate('a')), answering(deny('b'))], { composition: runAll, resolver: approving(allow, log2) }).emit('pre_tool_call', toolFields());
  t.equal(log2.length, 0, 'a single plain deny makes lifting pointless');
  t.equal(plain.proceed, false);
  t.notOk('resolved_by' in plain.record);
});

t.test('§7.5 parallel: every interceptor sees the same untransformed snapshot', async (t) => {
  const seen: AgentContext[] = [];
  const em = await emitterWith([answering(transform('$target.a', 2)), answering(allow, seen)], { composition: strictest }).emit('pre_tool_call', toolFields({ a: 1 }));
  t.same(seen[0]!.target, { a: 1 });
  t.same(em.target, { a: 2 }, 'exactly one transform → applied');
  t.equal(em.record.decided_by, 0);
  t.notOk('fold_truncated' in em.record, 'fold_truncated is defined for sequential profiles only');
});

t.test('§7.5 strictest: two transforms conflict → deny transform_conflict (decided_by null) by default', async (t) => {
  const em = await emitterWith([answering(transform('$target.a', 2)), answering(transform('$target.b', 3))], { composition: strictest }).emit('pre_tool_call', toolFields({ a: 1, b: 1 }));
  t.equal(em.verdict.reason, HOST_ERROR.transform_conflict);
  t.equal(em.record.decided_by, null);
  t.equal(em.record.composition.on_transform_conflict, 'deny');
  t.notOk('on_approval' in em.record.composition, 'knobs the profile never consults are absent');
});

t.test('§7.5 strictest on_transform_conflict "approval": a synthesized liftable deny is consulted; the resolver may transform', async (t) => {
  const log: unknown[] = [];
  const em = await emitterWith([answering(transform('$target.a', 2)), answering(transform('$target.a', 3))], {
    composition: { profile: 'parallel/strictest', on_transform_conflict: 'approval' },
    resolver: approving(transform('$target.a', 9), log),
  }).emit('pre_tool_call', toolFields({ a: 1 }));
  t.equal(log.length, 1);
  t.equal((log[0] as { verdict: { reason: string } }).verdict.reason, HOST_ERROR.transform_conflict);
  t.same(em.target, { a: 9 });
  t.equal(em.record.decided_by, null);
  t.equal(em.record.resolved_by, 'approval');
});

t.test('§7.5 strictest: a liftable winner is consulted once; lower-severity transforms are not applied', async (t) => {
  const em = await emitterWith([answering(transform('$target.a', 2)), answering(escalate())], { composition: strictest, resolver: approving() }).emit('pre_tool_call', toolFields({ a: 1 }));
  t.equal(em.proceed, true);
  t.same(em.target, { a: 1 });
  t.equal(em.record.decided_by, 1);
});

t.test('§7.5 unanimous: anything but unanimous allow is composition_disagreement (decided_by null)', async (t) => {
  const ok = await emitterWith([answering(allow), answering(allow)], { composition: unanimous }).emit('pre_tool_call', toolFields());
  t.equal(ok.verdict.decision, 'allow');
  const tr = await emitterWith([answering(allow), answering(transform('$target.a', 1))], { composition: unanimous }).emit('pre_tool_call', toolFields({ a: 0 }));
  t.equal(tr.verdict.reason, HOST_ERROR.composition_disagreement);
  t.equal(tr.record.decided_by, null);
  t.equal(tr.record.composition.on_disagreement, 'deny');
  t.same(tr.record.verdicts!.map((v) => v.decision), ['allow', 'transform']);
});

t.test('§7.5 unanimous on_disagreement "approval": consulted; the resolution becomes the combined verdict', async (t) => {
  const em = await emitterWith([answering(deny('x')), answering(allow)], { composition: { profile: 'parallel/unanimous', on_disagreement: 'approval' }, resolver: approving() }).emit('pre_tool_call', toolFields());
  t.equal(em.proceed, true);
  t.equal(em.record.resolved_by, 'approval');
  const none = await emitterWith([answering(deny('x')), answering(allow)], { composition: { profile: 'parallel/unanimous', on_disagreement: 'approval' } }).emit('pre_tool_call', toolFields());
  t.equal(none.proceed, false, 'no resolver: the synthesized liftable deny stands');
  t.equal(none.verdict.reason, HOST_ERROR.composition_disagreement);
});

t.test('§8 evaluate_only: verdicts recorded, action proceeds, transforms validated not applied, identities equal', async (t) => {
  const seen: AgentContext[] = [];
  const e = emitterWith([answering(transform('$target.a', 2)), answering(deny('d'), seen)], { mode: 'evaluate_only' });
  const em = await e.emit('pre_tool_call', toolFields({ a: 1 }));
  t.same(seen[0]!.target, { a: 1 }, 'later interceptors observe the untransformed context');
  t.equal(em.proceed, true);
  t.same(em.target, { a: 1 });
  t.equal(em.record.mode, 'evaluate_only');
  t.equal(em.record.verdict.decision, 'deny');
  t.equal(em.record.enforced_identity, em.record.input_identity);
  const invalid = await emitterWith([answering(transform('$target.missing.x', 1))], { mode: 'evaluate_only' }).emit('pre_tool_call', toolFields({ a: 1 }));
  t.equal(invalid.record.verdict.reason, HOST_ERROR.transform_invalid, 'transforms are validated');
  t.equal(invalid.proceed, true);
});

t.test('§8/§5.4/§7.3 evaluate_only: the action proceeds, so permit labels persist even when the combined verdict is a deny', async (t) => {
  const e = emitterWith([answering({ decision: 'allow', result_labels: ['pii'] }), answering(deny('d'))], { mode: 'evaluate_only' });
  const em = await e.emit('pre_tool_call', toolFields());
  t.equal(em.proceed, true);
  t.equal(em.record.verdict.decision, 'deny');
  t.same(em.record.verdict.result_labels, ['pii'], 'the union of permit labels rides on the recorded verdict');
  t.same(em.labels, { interceptor_0: ['pii'] }, 'and is persisted with the data that proceeds');
  const enforced = await emitterWith([answering({ decision: 'allow', result_labels: ['pii'] }), answering(deny('d'))]).emit('pre_tool_call', toolFields());
  t.same(enforced.labels, {}, 'in enforce the deny stops the action and nothing is persisted');
});

t.test('§8 evaluate_only: the approval seam is never consulted', async (t) => {
  for (const composition of [{ profile: 'sequential/first_deny' as const }, runAll, strictest, { profile: 'parallel/unanimous' as const, on_disagreement: 'approval' as const }]) {
    const log: unknown[] = [];
    const em = await emitterWith([answering(escalate())], { mode: 'evaluate_only', resolver: approving(allow, log), composition }).emit('pre_tool_call', toolFields());
    t.equal(log.length, 0, composition.profile);
    t.notOk('resolved_by' in em.record);
    t.equal(em.proceed, true);
  }
});
