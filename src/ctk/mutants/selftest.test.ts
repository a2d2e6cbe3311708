import t from 'tap';
import { layoutSkip } from '../../harness/layout.js';
import { POSTURES, type PostureName } from '../../core/postures.js';
import { MUTANTS } from './mutants.js';
import { MUTANT_REQUIREMENTS, requirementOfMutant, requirementsOfMutant } from './requirements.js';
import { requirementsById } from '../coverage.js';
import { renderMarginal, renderSelftest, runMarginal, runSelftest } from './selftest.js';
import { defaultVectorPaths, loadVectors } from '../load.js';
import { runVector } from '../runner.js';
import { createReferenceHarness } from '../../harness/reference-harness.js';
import type { JsonObject } from '../../core/types.js';

const suite = loadVectors(defaultVectorPaths());
const byId = (id: string) => {
  const lv = suite.find((v) => v.vector.id.startsWith(id));
  if (!lv) throw new Error(`no vector ${id}`);
  return lv;
};

t.test('the mutant catalogue: at least 40 distinct broken hosts, each naming one clause', async (t) => {
  t.ok(MUTANTS.length >= 40, `${MUTANTS.length} mutants`);
  t.equal(new Set(MUTANTS.map((m) => m.id)).size, MUTANTS.length, 'ids are unique');
  for (const m of MUTANTS) {
    t.match(m.id, /^[a-z0-9]+(-[a-z0-9]+)*$/, `${m.id}: kebab-case id`);
    t.match(m.clause, /^[0-9]+(\.[0-9]+[a-z]?)*$/, `${m.id}: one clause`);
    t.ok(m.description.length > 10, `${m.id}: described`);
  }
  t.same(
    MUTANTS.slice(0, 4).map((m) => m.id),
    ['guard-throws-action-runs', 'path-emits-no-hook', 'records-bind-nothing-null', 'records-bind-nothing-constant'],
    "the announcement's incident classes come first",
  );
});

t.test('every mutant names the requirements it breaks, each one in the catalogue (src/ctk/mutants/requirements.ts)', async (t) => {
  const byReq = requirementsById();
  t.same(MUTANTS.filter((m) => requirementOfMutant(m.id) === undefined).map((m) => m.id), [], 'every mutant has a row');
  const ids = new Set(MUTANTS.map((m) => m.id));
  t.same(Object.keys(MUTANT_REQUIREMENTS).filter((id) => !ids.has(id)), [], 'every row names a mutant');
  const unknown = MUTANTS.flatMap((m) => requirementsOfMutant(m.id).filter((r) => !byReq.has(r)).map((r) => `${m.id}: ${r}`));
  t.same(unknown, [], 'every requirement named is in vectors/requirements.yaml');
  const twice = MUTANTS.filter((m) => new Set(requirementsOfMutant(m.id)).size !== requirementsOfMutant(m.id).length).map((m) => m.id);
  t.same(twice, [], 'no row names a requirement twice');
});

t.test('every mutant is killed by the project suite and the whole suite passes on the correct host', async (t) => {
  const result = await runSelftest({ vectors: suite, mutants: MUTANTS, stopAtFirstKill: true });
  t.same(result.baseline.failed, [], 'no vector fails on the correct reference host');
  t.equal(result.baseline.passed.length + result.baseline.skipped.length, suite.length);
  const otherPosture = suite.filter((lv) => Object.entries(lv.vector.postures ?? {}).some(([name, value]) => value !== POSTURES[name as PostureName].default)).map((lv) => lv.vector.id);
  t.ok(otherPosture.length > 0, 'the suite has vectors gated on non-default postures');
  const incrementalOnly = suite.filter((lv) => lv.requiredCapabilities.includes('incremental_output')).map((lv) => lv.vector.id);
  // Vectors gated to a conversation layout other than the reference's default one (GRAMMAR.md §1).
  const otherLayout = suite.filter((lv) => layoutSkip(lv.vector.layout, undefined) !== undefined).map((lv) => lv.vector.id);
  // The input seam of the reference loop holds objects: a vector for a host that holds text only is not its own.
  const textOnly = suite.filter((lv) => lv.requiredCapabilities.includes('text_only_input')).map((lv) => lv.vector.id);
  t.same(result.baseline.skipped.sort(), [...new Set(['AH-CTK-381-int64-tool-args-exact', 'AH-CTK-382-bigint-beyond-64-bits-exact', 'AH-CTK-723-int64-transform-value-exact', ...otherPosture, ...incrementalOnly, ...otherLayout, ...textOnly])].sort(), 'the buffered host skips only the big-integer vectors a JS host cannot run, the vectors of the postures it does not declare, the incremental vectors, and those of a text-only input seam');
  t.same(result.baseline_incremental?.failed, [], 'no vector fails on the correct incremental configuration either');
  t.ok(incrementalOnly.every((id) => result.baseline_incremental!.passed.includes(id)), 'which runs (and passes) every incremental vector');
  const survivors = result.mutants.filter((m) => m.killed_by.length === 0).map((m) => m.id);
  t.same(survivors, [], 'no survivors');
  // Fast mode tries the vectors pinning a mutant's requirement first, so a first killer outside them means none of
  // them catches the broken host: the catalogue's pins for that requirement miss it.
  const byReq = requirementsById();
  const missed = result.mutants
    .filter((m) => m.killed_by.length > 0 && !(byReq.get(requirementOfMutant(m.id)!)?.vectors ?? []).includes(m.killed_by[0]!))
    .map((m) => `${m.id}: none of the vectors of ${requirementOfMutant(m.id)} kills it (${m.killed_by[0]} does: pin it there)`);
  t.same(missed, [], "every mutant is killed by a vector pinning its requirement in vectors/requirements.yaml");
  t.equal(result.survived, 0);
  t.equal(result.mutants.length, MUTANTS.length);
});

type FailCase = [mutant: string, vector: string, check: string, message: RegExp];
type Asserts = Pick<typeof t, 'equal' | 'ok' | 'match'>;
/** Each mutant fails its vector with a failure of that check whose path or message says what went wrong. */
async function failAsSaid(t: Asserts, cases: FailCase[]): Promise<void> {
  for (const [id, vector, check, message] of cases) {
    const harness = MUTANTS.find((m) => m.id === id)!.harness();
    const { result } = await runVector(byId(vector), { harness, surface: await harness.describe(), harnessLabel: 'test', timeoutMs: 10_000 });
    t.equal(result.status, 'fail', `${id} fails ${vector}`);
    const f = result.failures.find((x) => x.check.startsWith(check));
    t.ok(f, `${id} on ${vector}: a ${check} failure`);
    t.match(`${f?.path ?? ''} ${f?.message ?? ''}`, message, `${id} on ${vector}: the failure says what went wrong`);
  }
}

t.test('issue 18: each bug class a framework host had fails the default suite, and the failure says what went wrong', async (t) => {
  const cases: FailCase[] = [
    ['tool-value-unwrapped', 'AH-CTK-471', 'expect.run_outcome', /run outcome was "blocked", expected completed/],
    ['null-answer-errors', 'AH-CTK-483', 'expect.run_outcome', /run outcome was "error", expected completed/],
    ['tool-error-unprojectable-stringified', 'AH-CTK-485', 'expect.by_posture.cases.continue.records[0].assert', /verdict\.decision differs/],
    ['parallel-declared-serial', 'AH-CTK-461', 'mock.tools.rendezvous', /declares parallel_tool_calls yet ran these tool calls one after another/],
    ['host-deny-quotes-target', 'AH-CTK-495', 'expect.records_must_not_contain', /record 5 \(post_tool_call\) contains "LEDGER-ENTRY-77"/],
  ];
  await failAsSaid(t, cases);
});

t.test('a guard that throws lets the refund run on its mutant, and the incident vector says so', async (t) => {
  const mutant = MUTANTS.find((m) => m.id === 'guard-throws-action-runs')!;
  const harness = mutant.harness();
  const { result } = await runVector(byId('AH-CTK-262'), { harness, surface: await harness.describe(), harnessLabel: 'test', timeoutMs: 10_000 });
  t.equal(result.status, 'fail');
  t.ok(result.failures.some((f) => /file_refund|tool/.test(f.message)), 'the failure names the tool that ran');
});

t.test('a survivor is reported, and only vectors passing on the correct host can kill', async (t) => {
  const leak = MUTANTS.find((m) => m.id === 'transform-value-leaks')!;
  const result = await runSelftest({ vectors: [byId('AH-CTK-201')], mutants: [leak] });
  t.equal(result.survived, 1);
  t.same(result.mutants[0]!.killed_by, []);
  const killed = await runSelftest({ vectors: [byId('AH-CTK-201'), byId('AH-CTK-224')], mutants: [leak] });
  t.same(killed.mutants[0]!.killed_by, [byId('AH-CTK-224').vector.id], 'killed_by lists exactly the killing vectors');
});

t.test('the reference host is deterministic: the same vector gives the same records on every run', async (t) => {
  // Timestamps differ between runs, and so do the identities hashed over them: keep their relations only.
  const strip = (records: unknown[]) =>
    records.map((r) => {
      const rec = r as JsonObject;
      return { ...rec, timestamp: null, input_identity: rec.input_identity === null ? null : 'bound', enforced_identity: rec.enforced_identity === rec.input_identity ? 'same' : 'changed' };
    });
  for (const id of ['AH-CTK-200', 'AH-CTK-284', 'AH-CTK-316', 'AH-CTK-361']) {
    const runs: unknown[] = [];
    for (let i = 0; i < 2; i++) {
      const harness = createReferenceHarness();
      const { result, trace } = await runVector(byId(id), { harness, surface: await harness.describe(), harnessLabel: 'test', timeoutMs: 10_000 });
      t.equal(result.status, 'pass', `${id} passes (run ${i + 1})`);
      runs.push({ records: strip(trace.records), outcome: trace.outcome, final_output: trace.final_output, tools: trace.tool_invocations });
    }
    t.same(runs[0], runs[1], `${id}: identical records, outcome and tool calls (timestamps and the identities hashed over them aside)`);
  }
});

t.test('runMarginal: beyond the suite and only-given, for given vectors outside the suite and inside it', async (t) => {
  const quorum = MUTANTS.filter((m) => m.id === 'strictest-majority-allows' || m.id === 'tool-runs-after-deny');
  // AH-CTK-661 against a suite that lacks it: what it kills that the suite does not.
  const outside = await runMarginal({ given: [byId('AH-CTK-661')], suite: [byId('AH-CTK-201'), byId('AH-CTK-214')], mutants: quorum });
  t.same(outside.in_suite, []);
  t.same(outside.only_given, ['strictest-majority-allows']);
  t.same(outside.beyond_suite, ['strictest-majority-allows']);
  t.equal(outside.also_killed_by['tool-runs-after-deny'], byId('AH-CTK-214').vector.id, 'a shared kill names the other killer');
  t.match(renderMarginal(outside), /Killed beyond the package suite \(the given vectors kill, the suite does not\): 1\n  strictest-majority-allows §7\.2:/);
  // The same vector inside the suite: nothing is beyond it, but it alone still kills the quorum mutant.
  const inside = await runMarginal({ given: [byId('AH-CTK-661')], suite: [byId('AH-CTK-201'), byId('AH-CTK-214'), byId('AH-CTK-661')], mutants: quorum });
  t.same(inside.in_suite, [byId('AH-CTK-661').vector.id]);
  t.same(inside.only_given, ['strictest-majority-allows']);
  t.same(inside.beyond_suite, []);
  const plain = renderSelftest(inside.given);
  t.match(plain, /^baseline: 1 vectors pass/);
  t.match(plain, /\n2\/2 mutants killed, 0 survived$/);
});

t.test('mock_faults: each host that hides a failing mock fails its vector, and the failure says what went wrong', async (t) => {
  const cases: FailCase[] = [
    ['model-failure-empty-answer', 'AH-CTK-770', 'expect.run_outcome', /run outcome was "blocked", expected error/],
    ['stream-failure-read-as-truncated', 'AH-CTK-771', 'expect.run_outcome', /run outcome was "blocked", expected error/],
    ['stream-failure-kept-as-answer', 'AH-CTK-771', 'expect.run_outcome', /run outcome was "completed", expected error/],
    ['tool-throw-read-as-result', 'AH-CTK-775', 'expect.interceptions', /tool_result\.is_error/],
  ];
  await failAsSaid(t, cases);
});

t.test('issue 30: a mutant with a conversation layout is scored against the reference host laid out the same way', async (t) => {
  const roles = MUTANTS.find((m) => m.id === 'input-role-by-text')!;
  t.same(roles.layout, { history: 'session' });
  const result = await runSelftest({ vectors: [byId('AH-CTK-800'), byId('AH-CTK-801'), byId('AH-CTK-802')], mutants: [roles] });
  t.same(result.mutants[0]!.killed_by, [byId('AH-CTK-801').vector.id], 'only the vector of its layout can kill it, and does');
  t.same(Object.keys(result.baseline_layouts ?? {}), ['buffered layout history="session"']);
  t.same(result.baseline_layouts!['buffered layout history="session"']!.passed, [byId('AH-CTK-801').vector.id], 'the laid-out baseline runs the vector gated on its layout');
  t.same(result.baseline.passed, [byId('AH-CTK-800').vector.id], 'the default baseline runs the one gated on history turn');
  t.match(renderSelftest(result), /baseline \(buffered layout history="session"\): 1 pass, 0 fail, 2 skipped/);
});

t.test('issue 30: each defect class a framework host had fails its vector, and the failure says what went wrong', async (t) => {
  const cases: FailCase[] = [
    ['input-role-by-text', 'AH-CTK-801', 'expect.model_calls', /do not contain "\{\\"role\\":\\"user\\"/],
    ['answer-output-labels-not-carried', 'AH-CTK-806', 'expect.interceptions', /lbl-answer-4/],
    ['labels-keyed-by-text', 'AH-CTK-809', 'expect.interceptions', /lbl-claim-31/],
    ['lookalike-read-as-number', 'AH-CTK-811', 'expect', /isLosslessNumber|filter|tool/],
  ];
  await failAsSaid(t, cases);
});
