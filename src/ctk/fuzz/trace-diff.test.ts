import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../version.js';
import type { JsonObject } from '../../core/types.js';
import { createReferenceHarness, referenceSurface } from '../../harness/reference-harness.js';
import { executeVector, type Execution } from '../runner.js';
import { deepClone } from '../../core/json.js';
import type { Vector } from '../vector.js';
import { firstDivergence, generalize } from './trace-diff.js';
import type { NormalizedTrace } from './normalize.js';
import { requirementsById } from '../coverage.js';
import { normalizeExecution } from './normalize.js';
import { generateCase } from './generate.js';
import { generationSpace } from './space.js';

const surface = referenceSurface();

/** A plain loop with one tool call and one interceptor that transforms the tool args. */
function loopVector(overrides: Record<string, unknown> = {}): Vector {
  return {
    id: 'AH-CTK-999-test',
    title: 'compare test',
    spec_clause: '13.2',
    capabilities: ['model_calls', 'tool_calls'],
    scenario: {
      input: { content: 'refund ord-417', role: 'user' },
      tools: [{ name: 'file_refund', behavior: [{ return: { ok: true } }] }],
      model_script: [
        { respond: { content: null, tool_calls: [{ id: 'c1', name: 'file_refund', args: { order: 'ord-417', amount: 40 } }], finish_reason: 'tool_calls' } },
        { respond: { content: 'done', tool_calls: [], finish_reason: 'stop' } },
      ],
    },
    interceptor_scripts: [[{ at: 'pre_tool_call', return: { decision: 'transform', transform: { path: '$target.amount', value: 4 } } }], []],
    expect: { interceptions: [], run_outcome: 'completed' },
    ...overrides,
  } as unknown as Vector;
}

async function run(v: Vector): Promise<Execution> {
  return executeVector(v, { harness: createReferenceHarness(), timeoutMs: 5000, recordAll: true });
}
const norm = (ex: Execution, v: Vector) => normalizeExecution(ex, { vector: v, surface });
const records = (ex: Execution) => ex.report!.records as JsonObject[];

t.test('two runs of the reference host normalize to the same trace, whatever the timestamps, ids and identity values', async (t) => {
  const v = loopVector();
  const a = await run(v);
  const b = await run(v);
  // Another host would choose other timestamps, session and agent ids, and (with other timestamps) identity values.
  for (const r of records(b)) {
    r.timestamp = '2031-01-01T00:00:00.000Z';
    r.session_id = 'another-session';
    if (typeof r.input_identity === 'string') r.input_identity = r.input_identity.replace('sha256:', 'sha256:f');
    if (typeof r.enforced_identity === 'string') r.enforced_identity = r.enforced_identity.replace('sha256:', 'sha256:f');
  }
  b.report!.identities = records(b).map((r) => ({ input_identity: r.input_identity as string, enforced_identity: r.enforced_identity as string }));
  for (const list of b.received) for (const c of list) Object.assign(c, { timestamp: 'then', session: { id: 'another-session' }, agent: { id: 'other', framework: 'other-fw' } });
  t.equal(firstDivergence(norm(b, v), norm(a, v), v), undefined);
});

t.test('the first difference is named by its field and by the requirement and clause it touches', async (t) => {
  const v = loopVector();
  const ref = await run(v);
  const host = await run(v);
  const at = records(host).findIndex((r) => r.interception_point === 'pre_tool_call');
  records(host)[at]!.decided_by = null;
  const d = firstDivergence(norm(host, v), norm(ref, v), v)!;
  t.match(d, { path: `records[${at}].decided_by`, field: 'records[*].decided_by', host: null, reference: 0, requirement: 'REQ-10.3-decided-by', clause: '10.3' });
  t.equal(d.requirement_text, requirementsById().get('REQ-10.3-decided-by')!.text);
});

t.test('a combined verdict that differs is found emission by emission, before its consequences', async (t) => {
  const v = loopVector();
  const ref = await run(v);
  const host = await run(v);
  const at = records(host).findIndex((r) => r.interception_point === 'pre_tool_call');
  (records(host)[at]!.verdict as JsonObject).decision = 'allow';
  host.mocks.tool_invocations[0]!.args = { order: 'ord-417', amount: 40 };
  const d = firstDivergence(norm(host, v), norm(ref, v), v)!;
  t.equal(d.path, `records[${at}].verdict.decision`);
});

t.test('identities are compared as relations: a stale enforced identity diverges, other values do not', async (t) => {
  const v = loopVector();
  const ref = await run(v);
  const host = await run(v);
  const at = records(host).findIndex((r) => r.interception_point === 'pre_tool_call');
  t.not(records(ref)[at]!.input_identity, records(ref)[at]!.enforced_identity, 'the transform changed the identity');
  records(host)[at]!.enforced_identity = records(host)[at]!.input_identity!;
  host.report!.identities[at]!.enforced_identity = host.report!.identities[at]!.input_identity;
  t.match(firstDivergence(norm(host, v), norm(ref, v), v), { path: `records[${at}].enforced_identity`, requirement: 'REQ-10.3-identities' });

  const constant = await run(v);
  for (const r of records(constant)) r.input_identity = r.enforced_identity = 'sha256:' + '0'.repeat(64);
  constant.report!.identities = records(constant).map(() => ({ input_identity: 'sha256:' + '0'.repeat(64), enforced_identity: 'sha256:' + '0'.repeat(64) }));
  const d = firstDivergence(norm(constant, v), norm(ref, v), v)!;
  t.ok(['identities.distinct_across_emissions', `records[${at}].enforced_identity`].includes(d.path), d.path);
});

t.test('what the spec leaves to the host is not a divergence: host_error message text, first_deny verdicts, verdicts[].name', async (t) => {
  const v = loopVector({ interceptor_script: [{ at: 'input', fault: 'raise' }], interceptor_scripts: undefined });
  const ref = await run(v);
  const host = await run(v);
  for (const r of records(host)) {
    const verdict = r.verdict as JsonObject;
    if (typeof verdict.reason === 'string' && verdict.reason.startsWith('host_error:')) verdict.message = 'our own words';
    delete r.verdicts; // OPTIONAL in sequential/first_deny (§10.3)
  }
  t.equal(firstDivergence(norm(host, v), norm(ref, v), v), undefined);
  const runAll = loopVector({ composition: { profile: 'sequential/run_all' } });
  const r2 = await run(runAll);
  const h2 = await run(runAll);
  for (const r of records(h2)) for (const s of (r.verdicts as JsonObject[] | undefined) ?? []) delete s.name;
  t.equal(firstDivergence(norm(h2, runAll), norm(r2, runAll), runAll), undefined, 'names are OPTIONAL');
  for (const r of records(h2)) delete r.verdicts;
  t.match(firstDivergence(norm(h2, runAll), norm(r2, runAll), runAll), { field: 'records[*].verdicts', requirement: 'REQ-10.3-verdicts-summary' }, 'verdicts is REQUIRED in run_all');
});

t.test('parallel tool calls: emissions of different tool calls may interleave (§12.2)', async (t) => {
  const v = loopVector({
    capabilities: ['model_calls', 'tool_calls', 'parallel_tool_calls'],
    scenario: {
      input: { content: 'two refunds', role: 'user' },
      tools: [{ name: 'file_refund', behavior: [{ return: { ok: true } }] }],
      parallel_tools: true,
      model_script: [
        { respond: { content: null, tool_calls: [{ id: 'c1', name: 'file_refund', args: { order: 'a', amount: 1 } }, { id: 'c2', name: 'file_refund', args: { order: 'b', amount: 2 } }], finish_reason: 'tool_calls' } },
        { respond: { content: 'done', tool_calls: [], finish_reason: 'stop' } },
      ],
    },
  });
  const ref = await run(v);
  const host = deepClone(ref as unknown as JsonObject) as unknown as Execution;
  // Reverse the tool emissions, contexts and invocations as a host running the calls the other way round would.
  const tool = (r: JsonObject) => String(r.interception_point).endsWith('_tool_call');
  const reorder = <T>(list: T[], isTool: (x: T) => boolean): T[] => {
    const idx = list.map((x, i) => (isTool(x) ? i : -1)).filter((i) => i >= 0);
    const rev = idx.map((i) => list[i]!).reverse();
    const out = [...list];
    idx.forEach((i, k) => (out[i] = rev[k]!));
    return out;
  };
  host.report!.records = reorder(records(host), tool);
  host.report!.identities = records(host).map((r) => ({ input_identity: r.input_identity as string, enforced_identity: r.enforced_identity as string }));
  host.received = host.received.map((list) => reorder(list, tool));
  host.mocks.tool_invocations.reverse();
  t.equal(firstDivergence(norm(host, v), norm(ref, v), v), undefined);
});

t.test('a host harness failure is a divergence at "harness", clause 13.2', async (t) => {
  const v = loopVector();
  const ref = await run(v);
  const failed = { ...(await run(v)), report: undefined } as Execution;
  t.match(firstDivergence(norm(failed, v), norm(ref, v), v), { path: 'harness', requirement: null, clause: '13.2' });
});

t.test('every requirement the comparison can name is in vectors/requirements.yaml', async (t) => {
  const source = readFileSync(path.join(PACKAGE_ROOT, 'src', 'ctk', 'fuzz', 'trace-diff.ts'), 'utf8');
  const ids = [...new Set([...source.matchAll(/'(REQ-[^']+)'/g)].map((m) => m[1]!))];
  t.ok(ids.length > 40, `${ids.length} requirement ids named`);
  const known = requirementsById();
  t.same(ids.filter((id) => !known.has(id)), []);
});

t.test('generalize() turns indices into wildcards', async (t) => {
  t.equal(generalize('records[3].verdicts[0].reason'), 'records[*].verdicts[*].reason');
  t.equal(generalize('contexts[1][4].target'), 'contexts[*][*].target');
});

t.test('reference against reference: no divergence on generated cases, run twice', async (t) => {
  const space = generationSpace(surface);
  const found: string[] = [];
  for (let i = 0; i < 120; i++) {
    const v = generateCase(space, 21, i);
    const [a, b] = await Promise.all([run(v), run(v)]);
    const d = firstDivergence(norm(a, v), norm(b, v), v);
    if (d) found.push(`${v.id}: ${d.path}`);
  }
  t.same(found, []);
});

/** One streamed answer (§12.1) that dies after its first chunk, under a buffering host. */
function streamVector(truncated: boolean): Vector {
  const stream = truncated ? ['Your refund '] : ['Your refund ', 'has been filed.'];
  return {
    id: 'AH-CTK-999-stream',
    title: 'stream compare test',
    spec_clause: '12.1',
    capabilities: ['model_calls', 'streaming'],
    scenario: {
      input: { content: 'refund ord-417', role: 'user' },
      model_script: [{ respond: { content: 'Your refund has been filed.', tool_calls: [], finish_reason: 'stop', stream, ...(truncated ? { stream_truncated: true } : {}) } }],
    },
    interceptor_script: [{ at: 'output', return: { decision: 'transform', transform: { path: '$target.content', value: 'rewritten' } } }],
    expect: { interceptions: [], run_outcome: 'completed' },
  } as unknown as Vector;
}

t.test('streams: whether interceptors saw the stream_incomplete emission is not compared (HARNESS.md §5)', async (t) => {
  const v = streamVector(true);
  const ref = await run(v);
  const host = await run(v);
  const before = host.received[0]!.length;
  host.received = host.received.map((list) => list.filter((c) => (c.response as JsonObject | undefined)?.finish_reason !== 'stream_incomplete'));
  host.recording = host.received[0]!;
  t.ok(host.received[0]!.length < before, 'the host did not dispatch the stream_incomplete emission');
  t.equal(firstDivergence(norm(host, v), norm(ref, v), v), undefined);
  t.equal(records(ref).find((r) => r.interception_point === 'post_model_call')?.verdict && (records(ref).find((r) => r.interception_point === 'post_model_call')!.verdict as JsonObject).reason, 'host_error:streaming_unsupported');
});

t.test('streams: chunks pulled, the release and what was persisted are compared; an unreported member is not', async (t) => {
  const v = streamVector(false);
  const ref = await run(v);
  t.equal(ref.report!.released_output, 'rewritten', 'the reference releases the verdicted output');

  const silent = await run(v);
  delete silent.report!.released_output;
  delete silent.report!.persisted;
  t.equal(firstDivergence(norm(silent, v), norm(ref, v), v), undefined, 'a host that reports neither is not compared on them');

  const raw = await run(v);
  raw.report!.released_output = 'Your refund has been filed.';
  t.match(firstDivergence(norm(raw, v), norm(ref, v), v), { path: 'released_output', requirement: 'REQ-12.1a-verdicted-content', clause: '12.1a' });

  const short = await run(v);
  short.mocks.streams[0]!.delivered = 1;
  t.match(firstDivergence(norm(short, v), norm(ref, v), v), { path: 'streams[0].delivered', requirement: 'REQ-12.1-stream-assembled' });

  const truncated = streamVector(true);
  const refT = await run(truncated);
  const leaky = await run(truncated);
  leaky.report!.persisted = `${leaky.report!.persisted ?? ''} Your refund `;
  const d = firstDivergence(norm(leaky, truncated), norm(refT, truncated), truncated);
  t.match(d, { path: 'persisted[0][0].persisted', host: true, reference: false });
});

t.test('the first differing field maps to the requirement it touches: five hand-made divergences', async (t) => {
  const clauseOf = async (v: Vector, edit: (h: NormalizedTrace) => void) => {
    const ref = norm(await run(v), v);
    const host = deepClone(ref as unknown as JsonObject) as unknown as NormalizedTrace;
    edit(host);
    return firstDivergence(host, ref, v)!;
  };
  const plain = loopVector({ interceptor_scripts: [[], []] });
  const msgs = (h: NormalizedTrace, i: number) => h.model_calls[i] as JsonObject[];

  // 1. A role mix-up with no interceptor transforming anything: what the model receives (§4.2).
  const role = await clauseOf(plain, (h) => void (msgs(h, 1)[0]!.role = 'system'));
  t.match(role, { path: 'model_calls[1][0].role', requirement: 'REQ-4.2-messages-received', clause: '4.2' }, 'a role, no transform: §4.2');

  // 2. A mid-conversation system message rendered as user text in what the interceptors saw, no transform: §4.2.
  const sys = loopVector({ interceptor_scripts: [[], []] });
  const framed = await clauseOf(sys, (h) => {
    const j = (h.contexts[0] as JsonObject[]).findLastIndex((c) => c.interception_point === 'pre_model_call');
    const c = h.contexts[0]![j] as JsonObject;
    for (const key of ['messages', 'target']) (c[key] as JsonObject[])[0] = { role: 'user', content: '[system] refund ord-417' };
  });
  t.match(framed, { field: /^contexts\[\*\]\[\*\]\.(messages|target)\[\*\]\.content$/, requirement: 'REQ-4.2-messages-received', clause: '4.2' }, 'a rendering of the messages, no transform: §4.2');

  // 3. A transform's write-back that did not reach the model: §4.3.
  const rewritten = loopVector({ interceptor_scripts: [[{ at: 'input', return: { decision: 'transform', transform: { path: '$target.content', value: 'refund [order]' } } }], []] });
  const writeBack = await clauseOf(rewritten, (h) => void (msgs(h, 0)[0]!.content = 'refund ord-417'));
  t.match(writeBack, { path: 'model_calls[0][0].content', requirement: 'REQ-4.3-target-observable', clause: '4.3' }, 'a transform in play: §4.3');

  // 4. Labels a verdict attached, not persisted with the record: §5.4.
  const labelled = loopVector({ interceptor_scripts: [[{ at: 'post_tool_call', return: { decision: 'allow', result_labels: ['pii'] } }], []] });
  const labels = await clauseOf(labelled, (h) => {
    const r = h.records.find((x) => (x as JsonObject).interception_point === 'post_tool_call') as JsonObject;
    delete (r.verdict as JsonObject).result_labels;
  });
  t.match(labels, { field: 'records[*].verdict.result_labels', requirement: 'REQ-5.4-labels-persist', clause: '5.4' }, 'labels: §5.4');

  // 5. A denied tool result that re-entered the conversation: §6.1.
  const denied = loopVector({ interceptor_scripts: [[{ at: 'post_tool_call', return: { decision: 'deny', reason: 'probe:no' } }], []] });
  const reentered = await clauseOf(denied, (h) => {
    for (const m of msgs(h, 1)) if (JSON.stringify(m).includes('blocked: ')) m.content = { ok: true };
  });
  t.match(reentered, { field: 'model_calls[*][*].content', requirement: 'REQ-6.1-post-not-incorporated', clause: '6.1' }, 'a discarded result re-entered: §6.1');

  // 6. A message the host added to a request (a whole call is §6 / §1.1; one message more or less in it is §4.2).
  const added = await clauseOf(plain, (h) => void msgs(h, 0).push({ role: 'user', content: '(host note)' }));
  t.match(added, { path: 'model_calls[0][1]', reference: undefined, requirement: 'REQ-4.2-messages-received', clause: '4.2' }, 'a message added: §4.2');
  const lost = await clauseOf(plain, (h) => void msgs(h, 1).pop());
  t.match(lost, { field: 'model_calls[*][*]', host: undefined, requirement: 'REQ-4.2-messages-received', clause: '4.2' }, 'a message lost: §4.2');
  const extraCall = await clauseOf(plain, (h) => void h.model_calls.push([{ role: 'user', content: 'again' }]));
  t.match(extraCall, { path: 'model_calls[2]', requirement: 'REQ-6-pre-not-dispatched' }, 'a whole call more: still §6');
});

t.test("a tool that fails natively (mock_faults): its error value is the host's choice, not a divergence; a transform of it still is compared", async (t) => {
  const v = loopVector({
    capabilities: ['model_calls', 'tool_calls', 'mock_faults'],
    scenario: {
      input: { content: 'refund ord-417', role: 'user' },
      tools: [{ name: 'file_refund', behavior: [{ return: null, fault: 'raise' }] }],
      model_script: [
        { respond: { content: null, tool_calls: [{ id: 'c1', name: 'file_refund', args: { order: 'ord-417' } }], finish_reason: 'tool_calls' } },
        { respond: { content: 'the refund failed', tool_calls: [], finish_reason: 'stop' } },
      ],
    },
    interceptor_scripts: [[{ at: 'post_tool_call', return: { decision: 'allow' } }], []],
  });
  // A host whose tools fail with an error of another type: the reference loop's value is `tool error: <type name>`.
  const renamed = () => {
    const inner = createReferenceHarness();
    return {
      ...inner,
      setup: (s: Parameters<typeof inner.setup>[0]) =>
        inner.setup({
          ...s,
          tools: async (call) => {
            try {
              return await s.tools(call);
            } catch {
              const e = new Error('the remote tool failed');
              e.name = 'RemoteFailure';
              throw e;
            }
          },
        }),
    };
  };
  const host = await executeVector(v, { harness: renamed(), timeoutMs: 5000, recordAll: true });
  const ref = await run(v);
  const post = (ex: Execution) => ex.recording.find((c) => c.interception_point === 'post_tool_call') as JsonObject;
  t.equal((post(host).tool_result as JsonObject).value, 'tool error: RemoteFailure', 'the host shows its own value');
  t.equal((post(ref).tool_result as JsonObject).value, 'tool error: MockFault');
  t.equal(firstDivergence(norm(host, v), norm(ref, v), v), undefined, 'no divergence: the value of a failed tool is the host\'s choice (HARNESS.md)');
  // A post_tool_call transform of that value must still reach the model (§4.3): one that does not is a divergence.
  const transformed = loopVector({ ...v, interceptor_scripts: [[{ at: 'post_tool_call', return: { decision: 'transform', transform: { path: '$target', value: 'refund unavailable' } } }], []] } as unknown as Record<string, unknown>);
  const h2 = await executeVector(transformed, { harness: renamed(), timeoutMs: 5000, recordAll: true });
  const r2 = await run(transformed);
  t.equal(firstDivergence(norm(h2, transformed), norm(r2, transformed), transformed), undefined, 'the same transform on both: no divergence');
  const lost = norm(h2, transformed);
  for (const m of lost.model_calls[1] as JsonObject[]) if (m.role === 'tool') m.content = 'tool error: RemoteFailure';
  t.match(firstDivergence(lost, norm(r2, transformed), transformed), { field: 'model_calls[*][*].content', requirement: 'REQ-4.3-target-observable' }, 'a transform that did not reach the model still diverges');
  // With no interceptor nothing is recorded: the host's value is known only as the tool message the model received.
  const unseen = loopVector({ ...v, interceptor_scripts: undefined, interceptor_script: [] } as unknown as Record<string, unknown>);
  const h3 = await executeVector(unseen, { harness: renamed(), timeoutMs: 5000, recordAll: true });
  const r3 = await run(unseen);
  t.equal(firstDivergence(norm(h3, unseen), norm(r3, unseen), unseen), undefined, 'no interceptor: still the host\'s choice');
});

t.test('§6.3: a host-synthesized message that quotes the payload or an exception text differs; one in its own words does not', async (t) => {
  // An interceptor raises at pre_tool_call: host_error:interceptor_failed, whose message is the host's own.
  const v = loopVector({ interceptor_scripts: [[{ at: 'pre_tool_call', fault: 'raise' }]] });
  const a = await run(v);
  const at = records(a).findIndex((r) => (r.verdict as JsonObject).reason === 'host_error:interceptor_failed');
  t.ok(at > 0, 'the raise is recorded');
  const reworded = await run(v);
  (records(reworded)[at]!.verdict as JsonObject).message = 'the interceptor raised an Error';
  t.equal(firstDivergence(norm(reworded, v), norm(a, v), v), undefined, 'other words, no payload: no difference (§11 fixes the reason, not the text)');
  for (const quoted of ['tool file_refund args {"order":"ord-417"}', 'Error: ctk: scripted interceptor fault']) {
    const leaky = await run(v);
    (records(leaky)[at]!.verdict as JsonObject).message = quoted;
    const d = firstDivergence(norm(leaky, v), norm(a, v), v);
    t.equal(d?.path, `records[${at}].verdict.message`, quoted);
    t.equal(d?.requirement, 'REQ-6.3-no-target-in-message');
  }
});

t.test('§12.2, §13.1: tool invocations that waited at their rendezvous in vain differ (the host ran them one by one)', async (t) => {
  const v = loopVector({ interceptor_scripts: [] });
  const a = await run(v);
  const b = await run(v);
  b.mocks.rendezvous.push('tool "file_refund" (call c1) waited 400 ms at rendezvous "batch" …');
  const d = firstDivergence(norm(b, v), norm(a, v), v);
  t.equal(d?.path, 'rendezvous_in_vain');
  t.equal(d?.requirement, 'REQ-13.1-capabilities-observed');
});
