import t from 'tap';
import { createReferenceHarness, referenceSurface } from '../../harness/reference-harness.js';
import { MUTANTS } from '../mutants/mutants.js';
import { runCampaign, type CampaignOptions, type CampaignResult } from './fuzz.js';
import { createOracle, OracleConfigError } from './oracle.js';
import { fuzzMutants } from './mutant-campaigns.js';
import { vectorFromValue } from '../load.js';
import { parseLossless, stringifyLossless } from '../json.js';
import { checkCaseOnce } from './fuzz.test.util.js';

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
  t.same(s.check, { reference: 'pass', host: 'fail', host_failure: s.check.host_failure }, 'fails on the host, passes on the reference');
  // The written vector loads like a hand-written one and still shows the same divergence.
  const loaded = vectorFromValue(parseLossless(stringifyLossless(s.vector, 2)), 'divergence.json');
  t.notOk('problem' in loaded, 'loads');
  t.match(s.vector.title, /^fuzz: records\[\d+\]\.verdict\.(warnings\[\d+\]\.)?message differs from the reference host \(§10\.3\)/);
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
