import t from 'tap';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkVector, editDistance, fileNameProblems, loadVectorFile, loadVectors, nearestName, VectorLoadError } from './load.js';
import { baseVector, loaded } from './test-vectors.test.util.js';
import { isLosslessNumber } from './json.js';
import { POSTURE_CASE_MEMBERS, type Vector } from './vector.js';
import { PACKAGE_ROOT } from '../version.js';

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-load-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof VectorLoadError) return error.problems;
    throw error;
  }
  return [];
}

t.test('a valid vector loads; directories recurse; non-JSON files are ignored', async (t) => {
  const dir = dirWith({ 'a/one.json': JSON.stringify(baseVector()), 'requirements.yaml': 'x: 1\n', 'b/two.json': JSON.stringify(baseVector({ id: 'AH-CTK-901' })) });
  const vs = loadVectors([dir]);
  t.same(vs.map((v) => v.vector.id), ['AH-CTK-900-test-loop', 'AH-CTK-901']);
  t.match(vs[0]!.digest, /^sha256:[0-9a-f]{64}$/);
  t.equal(vs[0]!.part, 'core');
});

t.test('unparsable JSON names the file, line and column', async (t) => {
  const dir = dirWith({ 'bad.json': '{\n  "id": "AH-CTK-001",\n  oops\n}' });
  const [p] = problemsOf(() => loadVectors([dir]));
  t.match(p, /bad\.json: not valid JSON: line 3, column 3/);
});

t.test('schema problems name the file and JSON pointer', async (t) => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ ...baseVector(), extra: 1 }, /^\/: unknown member "extra"/],
    [{ ...baseVector(), id: 'CTK-1' }, /^\/id: must match pattern/],
    [{ ...baseVector(), expect: { ...(baseVector().expect as object), records: [{ interception_point: 'input', assert: 3 }] } }, /^\/expect\/records\/0\/assert: must be object/],
    [{ ...baseVector(), mode: 'lenient' }, /^\/mode: must be one of "enforce", "evaluate_only"/],
    [{ ...baseVector(), interceptor_script: [{ at: 'input', fault: 'explode' }] }, /^\/interceptor_script\/0\/fault: must be one of/],
    [{ ...baseVector(), scenario: { input: { content: 'x', role: 'robot' } } }, /^\/scenario\/input\/role/],
    [{ ...baseVector(), expect: { interceptions: [] } }, /^\/expect: missing required member "run_outcome"/],
    [{ ...baseVector(), interceptor_timeout_ms: 0 }, /^\/interceptor_timeout_ms: must be >= 1/],
    [{ ...baseVector(), identity_provider: 'JCS' }, /^\/identity_provider: must match pattern/],
    [{ ...baseVector(), identity_provider: 5 }, /^\/identity_provider: must be null or string$/],
    [{ ...baseVector(), scenario: { input: { content: 5, role: 'user' } } }, /^\/scenario\/input\/content: must be string or object$/],
  ];
  for (const [value, re] of cases) t.match(checkVector(value), re);
  const dir = dirWith({ 'x.json': JSON.stringify({ ...baseVector(), extra: 1 }) });
  t.match(problemsOf(() => loadVectors([dir]))[0], /x\.json: \/: unknown member "extra"/);
});

t.test('an unknown member suggests the nearest member the object admits (did you mean)', async (t) => {
  const v = baseVector() as Record<string, unknown>;
  const { interceptor_script: script, ...rest } = v;
  t.match(checkVector({ ...rest, intercepter_script: script }), /^\/: unknown member "intercepter_script" \(did you mean "interceptor_script"\?/);
  t.match(checkVector({ ...v, expect: { ...(v.expect as object), record_cuont: 1 } }), /^\/expect: unknown member "record_cuont" \(did you mean "record_count"\?/);
  const scenario = v.scenario as { model_script: Array<{ respond: { tool_calls: Array<Record<string, unknown>> } }> };
  const call: Record<string, unknown> = { ...scenario.model_script[0]!.respond.tool_calls[0]!, Args: {} };
  delete call.args;
  const moved = JSON.parse(JSON.stringify(v)) as typeof v & { scenario: typeof scenario };
  moved.scenario.model_script[0]!.respond.tool_calls[0] = call;
  t.match(checkVector(moved), /\/scenario\/model_script\/0\/respond\/tool_calls\/0: unknown member "Args" \(did you mean "args"\?/, 'inside lists and $refs too, case-insensitively');
  t.match(checkVector({ ...v, colour: 'blue' }), /^\/: unknown member "colour" \(vector objects are closed; vectors\/GRAMMAR\.md/, 'no suggestion when nothing is near');
  t.equal(editDistance('kitten', 'sitting'), 3);
  t.equal(editDistance('', 'abc'), 3);
  t.equal(nearestName('expext', ['expect', 'export']), 'expect', 'the first of equally near candidates');
  t.equal(nearestName('ab', ['abc', 'xyz']), 'abc');
  t.equal(nearestName('x', ['abc']), undefined);
});

t.test('expect.records[].match: dotted paths that parse, never together with index', async (t) => {
  const withRecords = (records: unknown[]) => ({ ...baseVector(), expect: { ...(baseVector().expect as object), records } });
  t.equal(checkVector(withRecords([{ interception_point: 'pre_tool_call', match: { 'tool_call.id': 'call-a' } }])), undefined);
  t.match(checkVector(withRecords([{ interception_point: 'pre_tool_call', match: { 'tool_call.id': 'call-a' }, index: 4 }])), /^\/expect\/records\/0: give "index" or "match", not both/);
  t.match(checkVector(withRecords([{ interception_point: 'pre_tool_call', match: { 'tool_call..id': 'call-a' } }])), /^\/expect\/records\/0\/match: "tool_call\.\.id" is not a valid dotted path/);
  t.match(checkVector(withRecords([{ interception_point: 'pre_tool_call', match: {} }])), /^\/expect\/records\/0\/match: must NOT have fewer than 1 properties/);
});

t.test('fileNameProblems: a file is named after its id (the id, or the id then "-…")', async (t) => {
  const dir = dirWith({
    'AH-CTK-900-test-loop.json': JSON.stringify(baseVector()),
    'AH-CTK-901-more-words.json': JSON.stringify(baseVector({ id: 'AH-CTK-901' })),
    'AH-CTK-9021.json': JSON.stringify(baseVector({ id: 'AH-CTK-902' })),
    'other.json': JSON.stringify(baseVector({ id: 'AH-CTK-903' })),
  });
  const problems = fileNameProblems(loadVectors([dir]));
  t.equal(problems.length, 2);
  t.match(problems[0], /AH-CTK-9021\.json: the file name does not start with its id "AH-CTK-902"; name it AH-CTK-902\.json/);
  t.match(problems[1], /other\.json: the file name does not start with its id "AH-CTK-903"/);
});

t.test('semantic rules the schema cannot state', async (t) => {
  const v = baseVector();
  const { interceptor_script: _drop, ...neither } = v;
  t.match(checkVector(neither), /exactly one of "interceptor_script" or "interceptor_scripts"/);
  t.match(checkVector({ ...v, interceptor_scripts: [] }), /exactly one of/);
  t.equal(checkVector({ ...neither, interceptor_scripts: [] }), undefined, 'interceptor_scripts: [] alone is fine');
  t.match(checkVector({ ...v, interceptor_script: [{ at: 'input', return: {}, fault: 'raise' }] }), /\/interceptor_script\/0: a rule has exactly one of "return" or "fault"/);
  t.match(checkVector({ ...v, interceptor_script: [{ at: 'input' }] }), /exactly one of "return" or "fault"/);
  t.match(
    checkVector({ ...v, expect: { ...(v.expect as object), run_outcome_by_posture: { posture: 'tool_seam_host_error', outcomes: { continue: 'blocked' } } } }),
    /\/expect\/run_outcome_by_posture\/outcomes\/continue: "blocked" must equal expect.run_outcome "completed"/,
  );
  t.match(checkVector({ ...v, composition: { profile: 'sequential/run_all', on_approval: 'stop' } }), /\/composition\/on_approval: profile sequential\/run_all never consults on_approval/);
  t.match(checkVector({ ...v, interceptor_script: [{ at: 'input', match: { 'a..b': 1 }, return: {} }] }), /\/interceptor_script\/0\/match: "a\.\.b" is not a valid dotted path/);
  t.match(checkVector({ ...v, approval_script: [{ resolve: { verdict: {} } }] }), /\/approval_script\/0\/resolve: missing required member "outcome"/);
  t.match(checkVector({ ...v, approval_script: [{ resolve: { fault: 'raise', outcome: 'approve' } }] }), /a fault resolve carries only "fault"/);
  t.match(checkVector({ ...v, expect: { ...(v.expect as object), outputs: ['a'] } }), /per-turn outputs need scenario.inputs/);
  t.match(checkVector({ ...v, redact_for_approval: ['$target.*'] }), /\/redact_for_approval\/0: must match pattern/);
  t.match(checkVector({ ...v, composition: { profile: 'parallel/unanimous', on_transform_conflict: 'deny' } }), /\/composition\/on_transform_conflict: profile parallel\/unanimous never consults on_transform_conflict/, '§7.2: unanimous consults on_disagreement only');
});

t.test('the §12.2 probe and the §6.3 check: rules the schema cannot state (GRAMMAR.md §12)', async (t) => {
  const v = baseVector() as { scenario: { tools: Array<{ behavior: object[] }> }; expect: object };
  const withRendezvous = (parallel: boolean) => ({
    ...v,
    scenario: { ...v.scenario, parallel_tools: parallel, tools: [{ name: 'multiplier', behavior: [{ return: 'x', rendezvous: { group: 'g', parties: 2 } }] }] },
  });
  t.equal(checkVector(withRendezvous(true)), undefined);
  t.match(checkVector(withRendezvous(false)), /\/scenario\/tools\/0\/behavior\/0\/rendezvous: needs scenario.parallel_tools true/);
  t.match(checkVector({ ...withRendezvous(true), scenario: { ...withRendezvous(true).scenario, tools: [{ name: 'm', behavior: [{ return: 'x', rendezvous: { group: 'g', parties: 1 } }] }] } }), /rendezvous\/parties: must be >= 2/);
  t.ok(loaded(withRendezvous(true) as never).requiredCapabilities.includes('parallel_tool_calls'), 'a rendezvous implies parallel_tool_calls');
  const denyWith = (reason: string) => ({ ...v, interceptor_script: [{ at: 'output', return: { decision: 'deny', reason } }] });
  const forbid = (o: object, s: string[]) => ({ ...o, expect: { ...v.expect, records_must_not_contain: s } });
  t.equal(checkVector(forbid(denyWith('probe:held'), ['forty-two'])), undefined);
  t.match(checkVector(forbid(denyWith('probe:forty-two'), ['forty-two'])), /\/expect\/records_must_not_contain\/0: "forty-two" occurs in the vector's interceptor or approval script/);
  t.match(checkVector(forbid(v, [''])), /records_must_not_contain\/0: must NOT have fewer than 1 characters/);
});

t.test('vector-level postures name registered postures and values only (§13.1)', async (t) => {
  const v = baseVector();
  t.equal(checkVector({ ...v, postures: { tool_seam_host_error: 'terminate' } }), undefined);
  t.match(checkVector({ ...v, postures: { retry_policy: 'twice' } }), /\/postures\/retry_policy: unknown posture \(known: tool_seam_host_error, stop_approval_fold_truncated\)/);
  t.match(checkVector({ ...v, postures: { tool_seam_host_error: 'retry' } }), /\/postures\/tool_seam_host_error: "retry" is not one of continue, terminate/);
  t.match(checkVector({ ...v, postures: {} }), /\/postures: must NOT have fewer than 1 properties/);
});

const raiseAtPreTool = { interceptor_script: [{ at: 'pre_tool_call', fault: 'raise' }] };
const byPosture = (cases: Record<string, unknown>, posture = 'tool_seam_host_error') => {
  const v = baseVector(raiseAtPreTool);
  return { ...v, expect: { ...(v.expect as object), by_posture: { posture, cases } } };
};
const bothCases = { continue: { run_outcome: 'completed', final_output: 'the product is forty-two' }, terminate: { run_outcome: 'blocked', final_output: null } };

t.test('expect.by_posture: a case per value of a registered posture, only members a posture changes (§13.1)', async (t) => {
  t.equal(checkVector(byPosture(bothCases)), undefined, 'one case per value loads');
  t.equal(checkVector(byPosture({ continue: {}, terminate: { run_outcome: 'blocked' } })), undefined, 'a case may state nothing beyond the top level');
  t.match(checkVector(byPosture(bothCases, 'retry_policy')), /^\/expect\/by_posture\/posture: unknown posture "retry_policy" \(known: tool_seam_host_error, stop_approval_fold_truncated\)/);
  t.match(checkVector(byPosture({ ...bothCases, retry: {} })), /^\/expect\/by_posture\/cases\/retry: "retry" is not a value of tool_seam_host_error \(one of continue, terminate/);
  t.match(checkVector(byPosture({ continue: bothCases.continue })), /^\/expect\/by_posture\/cases: no case for tool_seam_host_error=terminate; every value of the posture needs one/);
  t.match(checkVector(byPosture({ ...bothCases, terminate: { identities_equal: true } })), /^\/expect\/by_posture\/cases\/terminate: unknown member "identities_equal"/);
  t.match(checkVector(byPosture({ ...bothCases, terminate: { run_outcome: 'stopped' } })), /^\/expect\/by_posture\/cases\/terminate\/run_outcome: must be one of "completed", "blocked", "error"/);
  t.match(checkVector(byPosture({})), /^\/expect\/by_posture\/cases: must NOT have fewer than 1 properties/);
});

t.test('expect.by_posture: a member is stated once, and the default case agrees with the top-level run_outcome', async (t) => {
  const withTop = (extra: Record<string, unknown>, cases: Record<string, unknown> = bothCases) => {
    const v = byPosture(cases);
    return { ...v, expect: { ...v.expect, ...extra } };
  };
  t.match(checkVector(withTop({ final_output: 'the product is forty-two' })), /^\/expect\/by_posture\/cases\/continue\/final_output: also given at the top level of expect/);
  t.match(
    checkVector(withTop({}, { continue: { run_outcome: 'blocked' }, terminate: { run_outcome: 'blocked' } })),
    /^\/expect\/by_posture\/cases\/continue\/run_outcome: "blocked" must equal expect.run_outcome "completed" \(the top level of expect states the registry default's case, tool_seam_host_error=continue\)/,
  );
  t.match(
    checkVector(withTop({ run_outcome_by_posture: { posture: 'tool_seam_host_error', outcomes: { continue: 'completed', terminate: 'blocked' } } })),
    /^\/expect\/by_posture: give by_posture or run_outcome_by_posture, not both/,
  );
  t.match(checkVector({ ...byPosture(bothCases), postures: { tool_seam_host_error: 'continue' } }), /^\/expect\/by_posture\/posture: the vector is gated to tool_seam_host_error=continue/);
  t.equal(checkVector({ ...byPosture(bothCases), postures: { stop_approval_fold_truncated: 'always' } }), undefined, 'a gate on another posture is fine');
});

// A case may state the interception sequence its value leads to; the published grammar still requires the top-level
// list, which is the registry default's (as the top-level run_outcome is).
const point = (interception_point: string) => ({ interception_point });
const topLevelList = () => (baseVector().expect as { interceptions: Array<{ interception_point: string }> }).interceptions;
const endsAtTheToolCall = ['agent_startup', 'input', 'pre_model_call', 'post_model_call', 'pre_tool_call', 'agent_shutdown'].map(point);
const withLists = (continueCase: Record<string, unknown>, terminateCase: Record<string, unknown>) =>
  byPosture({ continue: { ...bothCases.continue, ...continueCase }, terminate: { ...bothCases.terminate, ...terminateCase } });

t.test('expect.by_posture: a case may state its interception sequence; the default case restates the top-level one', async (t) => {
  t.equal(checkVector(withLists({ interceptions: topLevelList() }, { interceptions: endsAtTheToolCall })), undefined, 'each value its own sequence loads');
  t.equal(
    checkVector(withLists({ interceptions: topLevelList() }, { interceptions: [point('pre_tool_call')], sequence_strict: false })),
    undefined,
    'a case reads its list with its own sequence_strict',
  );
  t.match(
    checkVector(withLists({ interceptions: endsAtTheToolCall }, { interceptions: endsAtTheToolCall })),
    /^\/expect\/by_posture\/cases\/continue\/interceptions: must equal expect.interceptions \(the top level of expect states the registry default's case, tool_seam_host_error=continue\)/,
  );
  t.match(
    checkVector(withLists({}, { interceptions: endsAtTheToolCall })),
    /^\/expect\/by_posture\/cases\/continue: states no interceptions while the case for terminate does; once one case states the interception sequence, every case states its own/,
  );
  t.match(
    checkVector(withLists({ interceptions: topLevelList(), sequence_strict: false }, { interceptions: endsAtTheToolCall })),
    /^\/expect\/by_posture\/cases\/continue\/sequence_strict: false \(absent means true\) must equal expect.sequence_strict true/,
    'the default case is strict exactly when the top level is',
  );
  const lenient = withLists({ interceptions: topLevelList(), sequence_strict: false }, { interceptions: endsAtTheToolCall });
  t.equal(checkVector({ ...lenient, expect: { ...lenient.expect, sequence_strict: false } }), undefined, 'both lenient agrees');
  t.match(
    checkVector(withLists({}, { sequence_strict: false })),
    /^\/expect\/by_posture\/cases\/terminate\/sequence_strict: a case's sequence_strict qualifies its own interceptions, and this case states none/,
  );
  t.match(
    checkVector(withLists({ interceptions: topLevelList() }, { interceptions: [point('pre_tool_call'), point('pre_model_call')].concat([{ interception_point: 'shutdown' }]) })),
    /^\/expect\/by_posture\/cases\/terminate\/interceptions\/2\/interception_point: must be one of/,
  );
  t.match(
    checkVector(withLists({ interceptions: topLevelList() }, { interceptions: [{ interception_point: 'pre_tool_call', context: { 'tool_call..name': 'x' } }] })),
    /^\/expect\/by_posture\/cases\/terminate\/interceptions\/0\/context: "tool_call\.\.name" is not a valid dotted path/,
  );
});

t.test('expect.by_posture: case members obey the rules of the same top-level members', async (t) => {
  t.match(checkVector(byPosture({ ...bothCases, continue: { outputs: ['x'] } })), /^\/expect\/by_posture\/cases\/continue\/outputs: per-turn outputs need scenario.inputs/);
  t.match(
    checkVector(byPosture({ ...bothCases, terminate: { records: [{ interception_point: 'pre_tool_call', assert: { 'verdict..reason': 'x' } }] } })),
    /^\/expect\/by_posture\/cases\/terminate\/records\/0\/assert: "verdict\.\.reason" is not a valid dotted path/,
  );
  t.match(checkVector(byPosture({ ...bothCases, terminate: { model_calls: [{ messages_must_contain: 'x' }] } })), /^\/expect\/by_posture\/cases\/terminate\/model_calls\/0\/messages_must_contain: must be array/);
});

t.test('the members a case may carry are the schema\'s postureCase members', async (t) => {
  const schema = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'schema', 'vectors.schema.json'), 'utf8')) as { $defs: { postureCase: { properties: object }; expect: { properties: object } } };
  t.same(Object.keys(schema.$defs.postureCase.properties).sort(), [...POSTURE_CASE_MEMBERS].sort());
  for (const m of POSTURE_CASE_MEMBERS) t.ok(m in schema.$defs.expect.properties, `${m} is a top-level expect member too`);
});

t.test('duplicate ids across the suite are an error naming both files', async (t) => {
  const dir = dirWith({ 'one.json': JSON.stringify(baseVector()), 'two.json': JSON.stringify(baseVector()) });
  t.match(problemsOf(() => loadVectors([dir]))[0], /two\.json: \/id: duplicate id "AH-CTK-900-test-loop" \(also in .*one\.json\)/);
});

t.test('a UTF-8 byte order mark is tolerated', async (t) => {
  const dir = dirWith({ 'bom.json': '\uFEFF' + JSON.stringify(baseVector()) });
  t.equal(loadVectors([dir]).length, 1);
});

t.test('a missing path is an error', async (t) => {
  t.match(problemsOf(() => loadVectors(['/nonexistent/vectors']))[0], /no such file or directory/);
});

t.test('integers beyond 2^53 are kept exactly', async (t) => {
  const text = JSON.stringify(baseVector()).replace('"a":6,"b":7}}],"finish', '"a":6,"b":7,"big":12345678901234567891}}],"finish');
  const dir = dirWith({ 'big.json': text });
  const [lv] = loadVectors([dir]);
  const args = ((lv!.vector as Vector).scenario.model_script![0]!.respond.tool_calls as Array<{ args: Record<string, unknown> }>)[0]!.args;
  t.ok(isLosslessNumber(args.big));
  t.equal((args.big as { value: string }).value, '12345678901234567891');
  t.equal(args.a, 6, 'safe numbers stay plain numbers');
});

t.test('numbers reach a harness as plain numbers wherever a double holds them exactly (HARNESS.md "Numbers")', async (t) => {
  const argsOf = (lv: { vector: unknown }) =>
    ((lv.vector as Vector).scenario.model_script![0]!.respond.tool_calls as Array<{ args: Record<string, unknown> }>)[0]!.args;
  const vectorsDir = path.join(PACKAGE_ROOT, 'vectors');
  const load = (name: string) => (loadVectorFile(path.join(vectorsDir, name)) as { loaded: { vector: unknown } }).loaded;
  // ±2^53 in vectors that need neither int64 capability: plain numbers (a JavaScript host rejects them natively, §10.2).
  const minus253 = argsOf(load('AH-CTK-279-domain-unsafe-integer-response.json'));
  t.equal(minus253.account, -9007199254740992, '-2^53 is a plain number');
  const floats = argsOf(load('AH-CTK-460-domain-float-tokens-in-domain.json'));
  t.same([floats.amount, floats.ceiling, floats.rate], [1e21, 1.5e300, 9.999999999999997e22], 'float tokens beyond 2^53 are plain numbers');
  // Only an int64 vector carries LosslessNumbers.
  const int64 = argsOf(load('AH-CTK-381-int64-tool-args-exact.json'));
  t.ok(isLosslessNumber(int64.account), 'an int64 token beyond 2^53 stays exact');
  t.equal(String(int64.account), '9223372036854775807');
  const text = JSON.stringify(baseVector()).replace('"a":6,"b":7}}],"finish', '"a":6.0,"b":7,"c":0.1,"d":1e20,"e":1.00000000000000000001}}],"finish');
  const [lv] = loadVectors([dirWith({ 'mixed.json': text })]);
  const args = argsOf(lv!);
  t.same([args.a, args.c], [6, 0.1], '6.0 and 0.1 are plain numbers');
  t.ok(isLosslessNumber(args.d) && isLosslessNumber(args.e), '1e20 (a float token a plain number would turn into an integer token) and an over-long decimal stay lossless');
});

t.test('CTK extensions imply their capabilities', async (t) => {
  const v = baseVector({
    interceptor_scripts: [[{ at: 'input', fault: 'hang' }], [{ at: 'output', return: 'not-an-object' }]],
    interceptor_script: undefined,
    scenario: { inputs: [{ content: 'a', role: 'user' }], parallel_tools: true },
  });
  delete v.interceptor_script;
  t.same(loaded(v).requiredCapabilities.sort(), ['hang_faults', 'model_calls', 'multi_turn', 'parallel_tool_calls', 'raw_interceptor_return', 'tool_calls']);
  const objReturn = baseVector({ interceptor_script: [{ at: 'input', return: { decision: 'nonsense' } }] });
  t.same(loaded(objReturn).requiredCapabilities, ['model_calls', 'tool_calls'], 'an object return, even an invalid verdict, needs nothing');
  const objectContent = baseVector({ scenario: { input: { content: 'a', role: 'user' }, model_script: [{ respond: { content: { d: 1 }, tool_calls: [], finish_reason: 'stop' } }] } });
  t.ok(loaded(objectContent).requiredCapabilities.includes('structured_model_content'), 'a model response whose content is an object needs a model interface that can return one');
  t.notOk(loaded(objectContent).requiredCapabilities.includes('structured_input_content'), 'a text input needs nothing');
  const objectInput = baseVector({ scenario: { input: { content: { text: 'refund', account: 'a-5' }, role: 'user' } } });
  t.ok(loaded(objectInput).requiredCapabilities.includes('structured_input_content'), 'an input whose content is an object (§4.2) needs an input seam that can take one');
  const objectTurn = baseVector({ scenario: { inputs: [{ content: 'a', role: 'user' }, { content: { b: 2 }, role: 'user' }] } });
  t.ok(loaded(objectTurn).requiredCapabilities.includes('structured_input_content'), 'so does any turn of a multi-turn run');
  const resolverHang = baseVector({ approval_script: [{ resolve: { fault: 'hang' } }] });
  t.ok(loaded(resolverHang).requiredCapabilities.includes('hang_faults'));
});

t.test('a vector file that is not UTF-8 is a load problem naming the file and offset', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-utf8-'));
  const file = path.join(dir, 'latin1.json');
  writeFileSync(file, Buffer.from([0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]));
  const r = loadVectorFile(file);
  t.ok('problem' in r);
  if ('problem' in r) t.match(r.problem, /latin1\.json: not valid UTF-8 \(the first bad byte is at offset 7\)/);
});

t.test('JSON nested beyond the parser stack is named as such, not as a syntax error', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-deep-'));
  const file = path.join(dir, 'deep.json');
  writeFileSync(file, '['.repeat(200_000) + ']'.repeat(200_000));
  const r = loadVectorFile(file);
  t.ok('problem' in r);
  if ('problem' in r) {
    t.match(r.problem, /deep\.json: nested too deeply to parse/);
    t.notMatch(r.problem, /call stack|not valid JSON/);
  }
});

t.test('mock_faults: a failing response or tool clause, and the members it cannot go with (GRAMMAR.md §2, §12)', async (t) => {
  const v = baseVector() as { scenario: { model_script: Array<{ respond: object }> }; expect: object };
  const respond = (r: object) => ({ ...v, scenario: { ...v.scenario, model_script: [{ respond: { content: 'ab', finish_reason: 'stop', ...r } }] } });
  const tool = (b: object) => ({ ...v, scenario: { ...v.scenario, tools: [{ name: 'm', behavior: [{ return: null, ...b }] }] } });
  t.equal(checkVector(respond({ fault: 'raise' })), undefined);
  t.equal(checkVector(respond({ fault: 'raise', stream: ['a'], fault_after: 1 })), undefined, 'a failing stream delivers a prefix of content');
  t.equal(checkVector(respond({ fault: 'raise', stream: ['a'], fault_after: 0 })), undefined);
  t.equal(checkVector(tool({ fault: 'raise' })), undefined);
  t.ok(loaded(respond({ fault: 'raise' }) as never).requiredCapabilities.includes('mock_faults'), 'a failing response implies mock_faults');
  t.ok(loaded(tool({ fault: 'raise' }) as never).requiredCapabilities.includes('mock_faults'), 'a failing tool implies mock_faults');
  t.notOk(loaded(v as never).requiredCapabilities.includes('mock_faults'));
  const ptr = '/scenario/model_script/0/respond';
  t.match(checkVector(respond({ fault: 'explode' })), /\/respond\/fault: must be one of "raise"/);
  t.match(checkVector(respond({ fault_after: 1, stream: ['ab'] })), new RegExp(`${ptr}/fault_after: needs "fault" and "stream"`));
  t.match(checkVector(respond({ fault: 'raise', fault_after: 0 })), new RegExp(`${ptr}/fault_after: needs "fault" and "stream"`));
  t.match(checkVector(respond({ fault: 'raise', stream: ['a'], fault_after: 2 })), new RegExp(`${ptr}/fault_after: 2 is more than the 1 chunks the stream lists`));
  t.match(checkVector(respond({ fault: 'raise', stream: ['a'], stream_truncated: true })), new RegExp(`${ptr}/stream_truncated: a failing stream \\(fault\\) ends by failing`));
  t.match(checkVector(respond({ fault: 'raise', content: {}, unprojectable: 'cycle' })), new RegExp(`${ptr}/unprojectable: a failing model call \\(fault\\) returns no response`));
  t.match(checkVector(respond({ fault: 'raise', stream: ['b'] })), /\/stream: the chunks concatenate to "b", which is not a prefix of content "ab"/);
  t.match(checkVector(tool({ fault: 'raise', is_error: true })), /\/scenario\/tools\/0\/behavior\/0\/is_error: a tool that fails \(fault\) returns no result/);
  t.match(checkVector(tool({ fault: 'raise', return: {}, unprojectable: 'cycle' })), /\/scenario\/tools\/0\/behavior\/0\/fault: a tool that fails returns no value, so it cannot also be unprojectable/);
});

t.test('readings: a vector-level gate and expect.by_reading name registered readings and values only', async (t) => {
  const v = baseVector();
  t.equal(checkVector({ ...v, readings: { errored_model_call: 'none' } }), undefined);
  t.match(checkVector({ ...v, readings: { colour: 'blue' } }), /\/readings\/colour: unknown reading \(known: errored_model_call\)/);
  t.match(checkVector({ ...v, readings: { errored_model_call: 'skip' } }), /\/readings\/errored_model_call: "skip" is not one of post_model_call, none \(§3\.1, §12\.1\)/);
  const byReading = (cases: Record<string, unknown>, reading = 'errored_model_call', extra: Record<string, unknown> = {}) => ({ ...v, ...extra, expect: { ...(v.expect as object), by_reading: { reading, cases } } });
  const both = { post_model_call: { record_count: 7 }, none: { record_count: 6 } };
  t.equal(checkVector(byReading(both)), undefined, 'one case per value loads');
  t.match(checkVector(byReading(both, 'colour')), /^\/expect\/by_reading\/reading: unknown reading "colour" \(known: errored_model_call\)/);
  t.match(checkVector(byReading({ none: {} })), /^\/expect\/by_reading\/cases: no case for errored_model_call=post_model_call; every value of the reading needs one/);
  t.match(checkVector(byReading(both, 'errored_model_call', { readings: { errored_model_call: 'none' } })), /^\/expect\/by_reading\/reading: the vector is gated to errored_model_call=none/);
  const twice = { ...byReading(both), expect: { ...byReading(both).expect, by_posture: { posture: 'tool_seam_host_error', cases: { continue: {}, terminate: {} } } } };
  t.match(checkVector(twice), /^\/expect\/by_posture: give by_posture or by_reading, not both \(one selection per vector\)/);
});
