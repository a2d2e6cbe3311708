// §10.3 the payload-free record: projection rules, truncation, and every field.
import t from 'tap';
import { utf8ByteLength } from '../core/index.js';
import { buildRecord, MESSAGE_MAX_BYTES, projectVerdict, truncateMessage, type RecordInput } from './record.js';
import { allow, answering, emitterWith, escalate, toolFields, transform } from './fixtures.test.util.js';

t.test('§10.3 truncation: at most 256 UTF-8 bytes, trailing … counted inside, never splitting a character', async (t) => {
  t.equal(MESSAGE_MAX_BYTES, 256);
  t.equal(truncateMessage('short'), 'short', 'untouched when it fits');
  const exact = 'a'.repeat(256);
  t.equal(truncateMessage(exact), exact, 'exactly 256 bytes is not truncated');
  const long = truncateMessage('M'.repeat(400));
  t.equal(utf8ByteLength(long), 256);
  t.ok(long.endsWith('…'));
  const euro = truncateMessage('€'.repeat(200)); // 3 bytes each
  t.ok(utf8ByteLength(euro) <= 256);
  t.ok(euro.endsWith('…'));
  t.equal(euro.slice(0, -1), '€'.repeat(84), '84 whole characters (252 bytes) + … (3 bytes)');
  const emoji = truncateMessage('😀'.repeat(100)); // surrogate pairs, 4 bytes each
  t.equal(emoji.slice(0, -1), '😀'.repeat(63));
  t.notMatch(emoji, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/, 'no lone high surrogate');
});

t.test('§10.3 projection: message/warnings truncated, approval emptied, transform.value dropped, evidence and labels kept', async (t) => {
  const p = projectVerdict({
    decision: 'deny',
    reason: 'r',
    message: 'x'.repeat(300),
    warnings: [{ reason: 'w', message: 'y'.repeat(300) }],
    approval: { resolver: 'host', context_identity: 'sha256:1' },
    evidence: { artefact: 'a', verification_pointers: { k: 'https://e' } },
    result_labels: ['l'],
  });
  t.equal(utf8ByteLength(p.message!), 256);
  t.equal(utf8ByteLength(p.warnings![0]!.message!), 256);
  t.equal(p.warnings![0]!.reason, 'w');
  t.same(p.approval, {});
  t.same(p.evidence, { artefact: 'a', verification_pointers: { k: 'https://e' } });
  t.same(p.result_labels, ['l']);
  const tr = projectVerdict({ decision: 'transform', transform: { path: '$target.card', value: '4111-1111' } });
  t.same(tr.transform, { path: '$target.card' });
  t.notMatch(JSON.stringify(tr), /4111/);
});

t.test('§10.3 record: every field present with the right values (sequential profile)', async (t) => {
  const e = emitterWith([answering(allow, [], 'guard')], { trace: { trace_id: 'abc', span_id: 'def' } });
  const em = await e.emit('pre_tool_call', toolFields());
  const r = em.record;
  t.equal(r.interception_point, 'pre_tool_call');
  t.equal(r.mode, 'enforce');
  t.same(r.verdict, { decision: 'allow' });
  t.match(r.input_identity, /^sha256:[0-9a-f]{64}$/);
  t.equal(r.enforced_identity, r.input_identity);
  t.equal(r.identity_provider, 'jcs-sha256');
  t.equal(r.session_id, 'session-1');
  t.equal(r.sequence, 0);
  t.equal(r.timestamp, (em.context as { timestamp: string }).timestamp, 'timestamp copied verbatim');
  t.same(r.trace, { trace_id: 'abc', span_id: 'def' });
  t.equal(r.decided_by, null, 'pure allow → null');
  t.same(r.composition, { profile: 'sequential/first_deny', on_approval: 'stop' });
  t.same(r.verdicts, [{ index: 0, decision: 'allow', name: 'guard' }]);
  t.equal(r.fold_truncated, false, 'present even when false');
  t.notOk('resolved_by' in r, 'absent when the seam was never consulted');
  t.equal(r.interceptors_registered, 1);
});

t.test('§10.3 record: trace absent when the context carries none; no payload in the record', async (t) => {
  const em = await emitterWith([answering(transform('$target.card', 'XXXX'))]).emit('pre_tool_call', toolFields({ card: '4111-1111-1111-1111' }));
  t.notOk('trace' in em.record);
  t.notMatch(JSON.stringify(em.record), /4111|XXXX/, 'neither the target nor transform.value reach the record');
});

t.test('§10.3 composition: consulted knobs with resolved defaults, others absent (every profile)', async (t) => {
  const expect = {
    'sequential/first_deny': { profile: 'sequential/first_deny', on_approval: 'stop' },
    'sequential/run_all': { profile: 'sequential/run_all' },
    'parallel/strictest': { profile: 'parallel/strictest', on_transform_conflict: 'deny' },
    'parallel/unanimous': { profile: 'parallel/unanimous', on_disagreement: 'deny' },
  } as const;
  for (const [profile, composition] of Object.entries(expect)) {
    const em = await emitterWith([answering(allow)], { composition: { profile: profile as never, on_approval: 'resume', on_disagreement: 'deny' } }).emit('pre_tool_call', toolFields());
    const want = profile === 'sequential/first_deny' ? { ...composition, on_approval: 'resume' } : composition;
    t.same(em.record.composition, want, profile);
    t.ok(Array.isArray(em.record.verdicts), 'verdicts summary always present');
  }
});

t.test('§10.3 decided_by: the consulted liftable deny\'s index survives an approval substitution (§7.6)', async (t) => {
  const em = await emitterWith([answering(allow), answering(escalate())], { resolver: (req) => ({ outcome: 'approve', context_identity: req.context_identity, verdict: allow }) }).emit('pre_tool_call', toolFields());
  t.equal(em.record.decided_by, 1);
  t.equal(em.record.resolved_by, 'approval');
});

t.test('§10.3 record trace: each string id echoed alone, non-string ids and a trace that is no object dropped; the default projection is projectVerdict', async (t) => {
  const input = (context: RecordInput['context']): RecordInput => ({
    point: 'input', mode: 'enforce', verdict: { decision: 'allow', message: 'x'.repeat(300) }, inputIdentity: null, enforcedIdentity: null,
    identityProvider: null, sessionId: 's', sequence: 0, context, decidedBy: null, composition: { profile: 'sequential/first_deny' },
    verdicts: [], foldTruncated: false, interceptorsRegistered: 0,
  });
  t.same(buildRecord(input({ trace: { trace_id: 't-1' } })).trace, { trace_id: 't-1' });
  t.same(buildRecord(input({ trace: { span_id: 's-1' } })).trace, { span_id: 's-1' });
  t.same(buildRecord(input({ trace: { trace_id: 't-1', span_id: 's-1' } })).trace, { trace_id: 't-1', span_id: 's-1' });
  for (const trace of [{ trace_id: 7, span_id: null }, {}, ['t-1'], null, 't-1']) t.notOk('trace' in buildRecord(input({ trace } as never)), JSON.stringify(trace));
  t.notOk('trace' in buildRecord(input(null)));
  t.same(buildRecord(input(null)).verdict, projectVerdict({ decision: 'allow', message: 'x'.repeat(300) }));
});
