import t from 'tap';
import { createReferenceHarness, referenceSurface } from '../../harness/reference-harness.js';
import { MUTANTS } from '../mutants/mutants.js';
import { runCampaign, type CampaignOptions, type CampaignResult } from './fuzz.js';
import { createOracle, OracleConfigError } from './oracle.js';
import { fuzzMutants } from './mutant-campaigns.js';
import { buildSummary, renderSummary } from './summary.js';
import { vectorFromValue } from '../load.js';
import { parseLossless, stringifyLossless } from '../json.js';
import { checkCaseOnce } from './fuzz.test.util.js';
import type { ConversationLayout } from '../../host/loop.js';
import { effectiveLayout, layoutValue, type LayoutMember } from '../../harness/layout.js';

const surface = referenceSurface();
const mutant = (id: string) => MUTANTS.find((m) => m.id === id)!;

async function campaign(hostId: string | null, extra: Partial<CampaignOptions>): Promise<CampaignResult> {
  const m = hostId ? mutant(hostId) : undefined;
  return runCampaign({
    host: { label: hostId ?? 'reference', surface, create: async () => (m ? m.harness() : createReferenceHarness()) },
    oracle: await createOracle(surface),
    seed: '1',
    runs: 100,
    ...extra,
  });
}

/** The result without timing figures. */
const stable = (r: CampaignResult) => ({
  cases: r.cases,
  groups: r.groups.map((g) => ({ field: g.field, requirement: g.requirement, cases: g.cases, first: g.first, vector: g.shrunk?.vector })),
});

t.test('reference host against itself: no divergence over 300 generated cases (the bench runs 10,000)', async (t) => {
  const r = await campaign(null, { runs: 300, jobs: 2 });
  t.equal(r.cases, 300);
  t.same(r.groups, []);
  t.same(r.unstable, []);
  t.ok(r.cases_per_second > 0);
});

t.test('deterministic by seed: the same seed and host give the same cases and result, with any --jobs', async (t) => {
  const a = await campaign('warnings-not-deduplicated', { runs: 60, jobs: 1, shrink: false });
  const b = await campaign('warnings-not-deduplicated', { runs: 60, jobs: 3, shrink: false });
  t.ok(a.groups.length > 0, 'the mutant diverges');
  t.same(stable(b), stable(a));
  const c = await campaign('warnings-not-deduplicated', { runs: 60, jobs: 2, shrink: false, seed: '2' });
  t.not(JSON.stringify(stable(c)), JSON.stringify(stable(a)), 'another seed, other cases');
});

t.test('stopping at the first divergence is deterministic too (every lower case still runs)', async (t) => {
  const one = await campaign('fold-truncated-wrong', { runs: 500, jobs: 1, stopAtFirstDivergence: true, shrink: false });
  const many = await campaign('fold-truncated-wrong', { runs: 500, jobs: 4, stopAtFirstDivergence: true, shrink: false });
  t.equal(one.groups.length, 1);
  t.same(stable(many), stable(one));
  t.equal(one.cases, one.groups[0]!.cases[0]! + 1);
});

t.test('a replayed case (--case) is exactly the case the campaign ran', async (t) => {
  const full = await campaign('labels-kept-on-deny', { runs: 200, stopAtFirstDivergence: true, shrink: false });
  const index = full.groups[0]!.cases[0]!;
  const replay = await campaign('labels-kept-on-deny', { onlyCase: index, shrink: false });
  t.equal(replay.cases, 1);
  t.same(replay.groups[0]!.cases, [index]);
  t.same(replay.groups[0]!.first, full.groups[0]!.first);
});

t.test('fuzz --mutants detects broken hosts with no fixed vectors', async (t) => {
  const ids = ['guard-throws-action-runs', 'tool-runs-after-deny', 'labels-kept-on-deny', 'approval-members-kept', 'sequence-starts-at-one', 'unanimous-as-strictest'];
  const { rows } = await fuzzMutants({ mutants: ids.map(mutant), seed: '1', budget: 400, jobs: 2, shrink: false });
  t.same(rows.filter((r) => !r.detected).map((r) => r.id), [], 'each is detected within 400 cases');
  for (const r of rows) t.ok(r.cases >= 1 && r.cases === (r.case ?? -1) + 1, `${r.id}: stopped at its first divergence`);
});

t.test('shrinking keeps the divergence and makes the case smaller; the written vector fails on the host and passes on the reference host', async (t) => {
  const r = await campaign('message-not-truncated', { runs: 300, stopAtFirstDivergence: true, shrinkBudget: 400 });
  const g = r.groups[0]!;
  t.ok(g, 'diverges');
  const s = g.shrunk!;
  t.ok(s.size.case_shrunk < s.size.case_original, `case ${s.size.case_original} → ${s.size.case_shrunk} bytes`);
  t.equal(s.divergence.field, g.field, 'same field');
  t.equal(s.divergence.requirement, g.requirement, 'same requirement');
  t.same(s.check, { reference: 'pass', reference_default: 'pass', host: 'fail', host_failure: s.check.host_failure }, 'fails on the host, passes on the reference');
  // The written vector loads like a hand-written one and still shows the same divergence.
  const loaded = vectorFromValue(parseLossless(stringifyLossless(s.vector, 2)), 'divergence.json');
  t.notOk('problem' in loaded, 'loads');
  t.match(s.vector.title, /^fuzz: records\[\d+\]\.verdict\.(warnings\[\d+\]\.)?message differs from the reference host \(§10\.3 REQ-10\.3-projection-message\)/);
  t.match(s.vector.title, /seed 1, case \d+$/);
  const again = await checkCaseOnce(mutant('message-not-truncated').harness(), s.vector);
  t.equal(again?.field, g.field);
});

t.test('an oracle that cannot take the declared posture is refused, never silently substituted', async (t) => {
  const terminate = { ...surface, postures: { tool_seam_host_error: 'terminate' as const } };
  const probe = createReferenceHarness({ postures: terminate.postures } as never);
  const declared = (await probe.describe()).postures.tool_seam_host_error;
  if (declared === 'terminate') {
    t.ok(await createOracle(terminate), 'the reference host takes the posture');
  } else {
    await t.rejects(createOracle(terminate), OracleConfigError);
    await t.rejects(createOracle(terminate), /tool_seam_host_error=terminate/);
  }
});

t.test('fuzz --mutants reaches the streaming, release, projection and incremental mutants (each against its own configuration)', async (t) => {
  const ids = [
    'projection-failure-wrong-reason', 'stream-first-chunk-only', 'stream-truncated-settles-clean', 'release-unverdicted-output',
    'incremental-reads-ahead', 'incremental-persists-withheld', 'incremental-residue-settles-clean',
  ];
  const { rows } = await fuzzMutants({ mutants: ids.map(mutant), seed: '1', budget: 400, jobs: 2, shrink: false });
  t.same(rows.filter((r) => !r.detected).map((r) => r.id), [], 'each is detected within 400 cases');
  t.match(rows.find((r) => r.id === 'incremental-reads-ahead'), { field: /^streams\[\d+\]\.delivered$/, requirement: 'REQ-12.1-incremental-deny-terminates' }, 'chunks pulled past a deny');
  t.match(rows.find((r) => r.id === 'release-unverdicted-output'), { field: 'released_output' }, 'what reached the caller');
});

t.test('a trimmed written vector still fails on its host and passes on the reference host, and asserts the divergent field', async (t) => {
  const { withIncrementalStreaming } = await import('../../harness/reference-harness.js');
  const { runVector } = await import('../runner.js');
  for (const [id, aim] of [
    ['stream-truncated-settles-clean', 'records'],
    ['release-unverdicted-output', 'released_output'],
    ['incremental-persists-withheld', 'persisted_must_not_contain'],
    ['incremental-reads-ahead', null], // pinned by the stream.consumption check, not by an expect member
  ] as const) {
    const m = mutant(id);
    const incremental = m.streaming === 'incremental';
    const s = incremental ? withIncrementalStreaming(surface) : surface;
    const r = await runCampaign({
      host: { label: id, surface: s, create: async () => m.harness() },
      oracle: await createOracle(s),
      seed: '1',
      runs: 400,
      stopAtFirstDivergence: true,
      shrinkBudget: 300,
    });
    const shrunk = r.groups[0]?.shrunk;
    if (!shrunk) {
      t.fail(`${id}: no shrunk divergence`);
      continue;
    }
    t.ok(shrunk.size.vector_shrunk < (shrunk.size.vector_original * 2) / 3, `${id}: ${shrunk.size.vector_original} → ${shrunk.size.vector_shrunk} bytes`);
    if (aim) t.ok((shrunk.vector.expect as unknown as Record<string, unknown>)[aim] !== undefined, `${id}: asserts ${aim}`);
    // Loaded from text and run exactly as `run --vectors` would, on the mutant and on the reference host.
    const loaded = vectorFromValue(parseLossless(stringifyLossless(shrunk.vector, 2)), 'divergence.json');
    if ('problem' in loaded) {
      t.fail(`${id}: ${loaded.problem}`);
      continue;
    }
    t.equal(loaded.loaded.requiredCapabilities.includes('incremental_output'), incremental && loaded.loaded.vector.scenario.model_script!.some((x) => Array.isArray(x.respond.stream)), `${id}: gated to the discipline it was found in`);
    const onHost = await runVector(loaded.loaded, { harness: m.harness(), surface: s, harnessLabel: id, timeoutMs: 5000 });
    const reference = incremental ? createReferenceHarness({ streaming: 'incremental' }) : createReferenceHarness();
    const onReference = await runVector(loaded.loaded, { harness: reference, surface: s, harnessLabel: 'reference', timeoutMs: 5000 });
    t.equal(onHost.result.status, 'fail', `${id}: fails on the mutant`);
    t.equal(onReference.result.status, 'pass', `${id}: passes on the reference host`);
  }
});

// The case: a streaming host keeps only what its framework keeps (here: nothing of a blocked turn), the
// input "please refund order ord-417" legitimately persists on the reference host, and the streamed answer's chunk
// "refund " is denied at post_model_call. The reference persisting the chunk's text (through the input) and the host
// not persisting it is no divergence: §6.1 / §12.1 say what must not persist, never what must. Before, this was a
// divergence whose vector asserted persisted_must_not_contain "refund ", which the reference host itself fails.
t.test('a chunk the reference persisted and the host did not is no divergence (persisted_must_not_contain after a streamed post_model_call deny)', async (t) => {
  const v = {
    id: 'AH-CTK-999-fuzz-regression',
    title: 'persisted after a streamed deny',
    spec_clause: '12.1',
    capabilities: ['model_calls', 'streaming'],
    scenario: {
      input: { content: 'please refund order ord-417', role: 'user' },
      model_script: [{ respond: { content: 'refund done', tool_calls: [], finish_reason: 'stop', stream: ['refund ', 'done'] } }],
    },
    interceptor_script: [{ at: 'post_model_call', return: { decision: 'deny', reason: 'probe:policy' } }],
    expect: { interceptions: [], sequence_strict: false, run_outcome: 'blocked' },
  } as unknown as Parameters<typeof checkCaseOnce>[1];
  const forgetful = createReferenceHarness();
  const host = { ...forgetful, run: async () => ({ ...(await forgetful.run()), persisted: '[]' }) };
  t.equal(await checkCaseOnce(host, v), undefined, 'no divergence');
  // The other direction stands: a host that persisted the denied chunk and the reference did not.
  const leaky = createReferenceHarness();
  const leaking = { ...leaky, run: async () => ({ ...(await leaky.run()), persisted: '["refund done"]' }) };
  const v2 = { ...v, scenario: { ...v.scenario, input: { content: 'what is the status?', role: 'user' } } };
  t.match(await checkCaseOnce(leaking, v2 as typeof v), { field: 'persisted[*][*].persisted', host: true, reference: false });
});

t.test('a written vector the reference host fails on its own run is never passed by the guard', async (t) => {
  const { passesOn } = await import('./trim-expect.js');
  const { executeVector } = await import('../runner.js');
  const v = {
    id: 'AH-CTK-999-guard',
    title: 'guard',
    spec_clause: '12.1',
    capabilities: ['model_calls', 'streaming'],
    scenario: { input: { content: 'please refund order', role: 'user' }, model_script: [{ respond: { content: 'ok', tool_calls: [], finish_reason: 'stop' } }] },
    interceptor_script: [],
    expect: { interceptions: [], sequence_strict: false, run_outcome: 'completed', persisted_must_not_contain: ['refund '] },
  } as unknown as Parameters<typeof checkCaseOnce>[1];
  const ex = await executeVector(v, { harness: createReferenceHarness(), timeoutMs: 5000, recordAll: true });
  t.notOk(passesOn(v, ex, surface), 'the input legitimately persists: the reference fails this vector');
  t.ok(passesOn({ ...v, expect: { ...v.expect, persisted_must_not_contain: ['zz-not-there'] } }, ex, surface));
});

t.test('the oracle lays its requests out as the host declares: a host with another layout is no divergence', async (t) => {
  const layout = { assistant_turn: 'before_tool_results', history: 'session', assistant_message: 'content_then_tool_calls', external_input: 'user', tool_error_content: 'text', host_messages: [{ role: 'system', content: 'Be brief.' }], user_placeholder: '.' } satisfies Partial<ConversationLayout>;
  const laidOut = referenceSurface(undefined, layout);
  const oracle = await createOracle(laidOut);
  t.match(oracle.label, /layout assistant_turn=before_tool_results, history=session, host_messages=prepended \(1\)/);
  const r = await runCampaign({ host: { label: 'laid out', surface: laidOut, create: async () => createReferenceHarness({ layout }) }, oracle, seed: '3', runs: 150, jobs: 2 });
  t.same(r.groups, [], 'the same layout on both sides: no divergence');
  // The default oracle against that host: its layout is all the difference there is.
  const plain = await runCampaign({ host: { label: 'laid out, compared with the default layout', surface, create: async () => createReferenceHarness({ layout }) }, oracle: await createOracle(surface), seed: '3', runs: 150, jobs: 2, shrink: false });
  t.ok(plain.divergent_cases > 30, `${plain.divergent_cases} of 150 cases differ when the layout is not taken`);
  t.ok(plain.groups.some((g) => g.field.startsWith('model_calls') || g.field.startsWith('contexts')), 'in the messages');
});

t.test('layout null_answer: a host whose null answer is the empty text is compared with a reference answering so too', async (t) => {
  // A null answer is drawn (about 6% of answers, generate.ts) or comes from a post_model_call transform of an answer's
  // content (an absent value is null, §5.2) or one that removes a null-content response's tool calls: some cases in
  // twenty (51 of 1000 at seed 1), the others agree.
  const layout = { null_answer: 'empty_text' } satisfies Partial<ConversationLayout>;
  const laidOut = referenceSurface(undefined, layout);
  const oracle = await createOracle(laidOut);
  t.match(oracle.label, /null_answer=empty_text/);
  const host = { label: 'null answer as empty text', surface: laidOut, create: async () => createReferenceHarness({ layout }) };
  const same = await runCampaign({ host, oracle, seed: '1', runs: 1000, jobs: 2, shrink: false });
  t.same(same.groups, [], 'the same null_answer on both sides: no divergence');
  const plain = await runCampaign({ host, oracle: await createOracle(surface), seed: '1', runs: 1000, jobs: 2, shrink: false });
  t.ok(plain.divergent_cases > 0 && plain.divergent_cases < 120, `${plain.divergent_cases} of 1000 cases differ when the layout is not taken`);
  t.ok(plain.groups.every((g) => /records|outcome|final_output|points/.test(g.field)), 'at output: the answer decides the turn');
});

t.test('a mutant under a declared layout: every written vector passes on the reference host under that layout', async (t) => {
  const layout = { assistant_turn: 'before_tool_results', history: 'session' } satisfies Partial<ConversationLayout>;
  const laidOut = referenceSurface(undefined, layout);
  // The tool runs after a pre_tool_call deny (§6).
  const r = await runCampaign({ host: { label: 'tool-runs-after-deny', surface: laidOut, create: async () => createReferenceHarness({ layout, parts: { shouldInvokeTool: () => true } }) }, oracle: await createOracle(laidOut), seed: '1', runs: 300, stopAtFirstDivergence: true, shrinkBudget: 200 });
  t.ok(r.groups.length > 0, 'detected');
  for (const g of r.groups) {
    t.equal(g.shrunk?.check.reference, 'pass', `${g.field}: the reference host passes the written vector`);
    t.not(g.shrunk?.check.reference_default, 'fail', `${g.field}: under the default layout it passes or is skipped by the layout it states`);
  }
  t.same(r.unconfirmed, []);
});

t.test('a vector asserting laid-out messages states the layout members it depends on: skipped under the default layout, passing under the host\'s', async (t) => {
  const layout = { assistant_turn: 'before_tool_results', history: 'session' } satisfies Partial<ConversationLayout>;
  const laidOut = referenceSurface(undefined, layout);
  // The host lays a failing tool's value out as text but does not declare it: its model requests differ (§4.2).
  const host = { label: 'tool error as text, undeclared', surface: laidOut, create: async () => createReferenceHarness({ layout: { ...layout, tool_error_content: 'text' } }) };
  const r = await runCampaign({ host, oracle: await createOracle(laidOut), seed: '1', runs: 400, stopAtFirstDivergence: true, shrinkBudget: 200 });
  const g = r.groups.find((x) => /^(model_calls|contexts)/.test(x.field));
  t.ok(g, `a divergence in the messages (groups: ${r.groups.map((x) => x.field).join(', ')})`);
  if (!g?.shrunk) return;
  const v = g.shrunk.vector;
  t.ok(v.expect.model_calls !== undefined || v.expect.interceptions.some((i) => i.context !== undefined), 'the vector asserts the messages');
  t.ok(v.layout !== undefined && Object.keys(v.layout).length > 0, `it states a layout (${JSON.stringify(v.layout)})`);
  for (const [member, value] of Object.entries(v.layout ?? {})) t.equal(value, layoutValue(effectiveLayout(laidOut.layout), member as LayoutMember), `${member}: the host's declared value`);
  t.equal(g.shrunk.check.reference, 'pass', "passes on the reference host under the host's layout");
  t.equal(g.shrunk.check.reference_default, 'skip', 'skipped under the default layout, by the layout it states');
  t.equal(g.shrunk.check.host, 'fail', 'fails on the host');
  t.match(renderSummary(buildSummary(r, { name: 'h', version: '0' }, 1)), /states layout .*is skipped on the reference host under the default layout \(by the layout it states\), passes on it under this host's layout; fails on this host/);
});

t.test('a host that shows its interceptors one message list and sends the model another is reported as self-contradicting, on its first such case', async (t) => {
  const m = MUTANTS.find((x) => x.id === 'system-rendered-as-user')!;
  const surface = referenceSurface();
  const r = await runCampaign({ host: { label: m.id, surface, create: async () => m.harness() }, oracle: await createOracle(surface), seed: '1', runs: 400, shrinkBudget: 150 });
  t.ok(r.groups.length > 0, 'detected');
  const first = Math.min(...r.groups.flatMap((g) => g.cases));
  t.equal(r.groups[0]!.kind, 'self_contradiction', 'the self-contradiction is listed first');
  t.equal(r.groups[0]!.cases[0], first, `its first divergent case (${first}) is reported as the host contradicting itself`);
  t.match(r.groups[0]!.field, /^self_contradiction\.model_messages$/);
  t.equal(r.groups[0]!.shrunk?.check.host, 'fail', 'the written vector fails on the host (by the cross-check)');
  t.equal(r.groups[0]!.shrunk?.check.reference, 'pass', 'and passes on the reference host');
  const text = renderSummary(buildSummary(r, { name: 'h', version: '0' }, 1));
  t.match(text, /the host CONTRADICTS ITSELF on \d+ case/);
  t.match(text, /\nSELF-CONTRADICTS self_contradiction\.model_messages/);
  // The reference host never contradicts itself.
  const clean = await runCampaign({ host: { label: 'reference', surface, create: async () => createReferenceHarness() }, oracle: await createOracle(surface), seed: '1', runs: 200 });
  t.same(clean.groups, []);
});

t.test('a host under a non-default posture: every written vector passes on the default reference host or is skipped there by the gate it states', async (t) => {
  const postures = { tool_seam_host_error: 'terminate' } as const;
  const declared = referenceSurface(postures);
  // The tool runs after a pre_tool_call deny (§6); under terminate a host_error deny at the tool seam ends the turn.
  const r = await runCampaign({ host: { label: 'tool-runs-after-deny (terminate)', surface: declared, create: async () => createReferenceHarness({ postures, parts: { shouldInvokeTool: () => true } }) }, oracle: await createOracle(declared), seed: '1', runs: 300, shrinkBudget: 150 });
  t.ok(r.groups.length > 0, 'detected');
  for (const g of r.groups) {
    const c = g.shrunk!.check;
    t.equal(c.reference, 'pass', `${g.field}: passes on the reference host under the host's posture`);
    t.not(c.reference_default, 'fail', `${g.field}: on the default reference host (tool_seam_host_error=continue) it passes or is skipped`);
    if (c.reference_default === 'skip') t.ok(c.postures !== undefined || c.layout !== undefined, `${g.field}: skipped by a gate it states (${JSON.stringify({ postures: c.postures, layout: c.layout })})`);
    if (c.postures) t.same(c.postures, postures, 'the posture it states is the host\'s');
  }
  t.same(r.unconfirmed, []);
});
