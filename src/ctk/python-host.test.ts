// The Python example host (examples/python-host/host.py) through the stdio harness: it passes every
// applicable project vector under each of its configurations (postures, buffered or incremental streaming), skips
// only what the configuration does not declare or a stdio host cannot run, agrees with the reference host on generated cases,
// keeps the reference agent loop where the fuzzer once found it diverging, and carries integers beyond 2^53
// byte-faithfully in both directions.
import t from 'tap';
import path from 'node:path';
import { PACKAGE_ROOT } from '../version.js';
import { isLosslessNumber, stringify, type LosslessNumber } from 'lossless-json';
import { defaultVectorPaths, loadVectors, vectorFromValue } from './load.js';
import type { LoadedVector } from './vector.js';
import { runSuite, runVector } from './runner.js';
import { runCampaign } from './fuzz/fuzz.js';
import { createOracle } from './fuzz/oracle.js';
import { createStdioHarness } from '../harness/stdio/client.js';

const host = JSON.stringify(path.join(PACKAGE_ROOT, 'examples/python-host/host.py'));
const command = `python3 ${host}`;
const bothPostures = `${command} --posture tool_seam_host_error=terminate --posture stop_approval_fold_truncated=always`;
const incremental = `${command} --incremental`;
// The suite's two big-integer vectors (int64_json, bigint_json).
const losslessVectors = ['AH-CTK-381-int64-tool-args-exact.json', 'AH-CTK-382-bigint-beyond-64-bits-exact.json'].map((f) => path.join(PACKAGE_ROOT, 'vectors', f));
// What a configuration leaves undeclared: the other stream discipline (incremental mediation when it buffers,
// buffered assembly when it mediates incrementally), projection faults (in-process only), the posture value it was
// not started with.
// text_only_input: the host's input seam holds objects (structured_input_content), so the text-only vectors are not its own.
const ALLOWED_SKIPS = /^host does not declare (capability incremental_output|buffered stream assembly|capability projection_faults|capability non_json_verdicts|capability text_only_input|posture )|^host declares conversation layout /;

const configurations = [['default', command, 'python-example-host'], ['--posture terminate, always', bothPostures, 'python-example-host'], ['--incremental', incremental, 'python-example-host-incremental']] as const;
for (const [label, cmd, name] of configurations) {
  t.test(`the Python host (${label}) passes every applicable vector; skips are the other discipline, projection or posture`, async (t) => {
    const harness = createStdioHarness({ command: cmd, timeoutMs: 20_000 });
    t.teardown(() => harness.close?.());
    const surface = await harness.describe();
    t.equal(surface.name, name);
    const report = await runSuite(loadVectors(defaultVectorPaths()), { harness, surface, harnessLabel: `stdio:${cmd}`, timeoutMs: 20_000 });
    const failed = report.results.filter((r) => r.status === 'fail');
    t.same(failed.map((r) => `${r.id}: ${r.reason ?? r.failures[0]?.message}`), [], 'no vector fails');
    t.ok(report.summary.passed > 180, `${report.summary.passed} vectors passed`);
    const skips = report.results.filter((x) => x.status === 'skip');
    t.same(skips.filter((r) => !ALLOWED_SKIPS.test(r.reason ?? '')).map((r) => `${r.id}: ${r.reason}`), [], 'nothing else is skipped');
    if (cmd === incremental) {
      // §12.1a, §13.1: the incremental configuration states it and its exposure bound, and runs the incremental part.
      t.equal(surface.buffered_output, false);
      t.ok(surface.capabilities.includes('incremental_output'));
      t.match(surface.exposure_bound, /^none/);
      const part = report.results.filter((r) => r.part === 'streaming/incremental');
      // A failing-mock vector of the part needs mock_faults, which this host does not declare.
      t.ok(part.length > 0 && part.every((r) => r.status === 'pass' || /capability mock_faults$/.test(r.reason ?? '')), `the ${part.length} streaming/incremental vectors pass`);
    }
    const postureSkips = skips.filter((r) => /posture /.test(r.reason ?? '')).length;
    t.ok(postureSkips > 0, `${postureSkips} vectors are gated to the other posture value`);
  });
}

t.test('a bad --posture is refused before describe answers', async (t) => {
  const harness = createStdioHarness({ command: `${command} --posture tool_seam_host_error=sometimes`, timeoutMs: 20_000 });
  t.teardown(() => harness.close?.());
  await t.rejects(harness.describe(), /usage: host\.py \[--incremental\] \[--posture NAME=VALUE\]/);
});

t.test('differential: 250 generated cases, the Python host does what the reference host does', async (t) => {
  const harness = createStdioHarness({ command, timeoutMs: 20_000 });
  const surface = await harness.describe();
  let handed = false;
  const result = await runCampaign({
    host: { label: 'python', surface, create: async () => (handed ? createStdioHarness({ command, timeoutMs: 20_000 }) : ((handed = true), harness)) },
    oracle: await createOracle(surface),
    seed: '11',
    runs: 250,
    jobs: 1,
    hangTimeoutMs: 200, // generous: an interceptor round trip over a loaded pipe must not look like a hang
    shrink: false,
  });
  t.equal(result.cases, 250);
  t.same(result.groups.map((g) => `${g.field} (§${g.clause}), cases ${g.cases.join(', ')}`), [], 'no divergence');
});

/** One vector, run on the Python host; returns its result and trace. */
async function runOne(value: object) {
  const made = vectorFromValue(value, 'inline.json');
  if (!('loaded' in made)) throw new Error(made.problem);
  const harness = createStdioHarness({ command, timeoutMs: 20_000 });
  try {
    const surface = await harness.describe();
    return await runVector(made.loaded as LoadedVector, { harness, surface, harnessLabel: 'python', timeoutMs: 20_000 });
  } finally {
    await harness.close?.();
  }
}

/** expect.interceptions: the points the first interceptor saw, in order. */
const seen = (...points: string[]) => points.map((p) => ({ interception_point: p }));
const TOOL_LOOP = seen('agent_startup', 'input', 'pre_model_call', 'post_model_call', 'pre_tool_call', 'post_tool_call',
  'pre_model_call', 'post_model_call', 'output', 'agent_shutdown');
const lookupTool = { name: 'lookup_parcel', behavior: [{ return: { status: 'in transit' } }] };
const callLookup = { content: null, tool_calls: [{ id: 'call-p1', name: 'lookup_parcel', args: { parcel: 'P-88' } }], finish_reason: 'tool_calls' };

t.test('the assistant turn of a tool-calling response without text is {role: assistant, content: {tool_calls}}', async (t) => {
  const { result, trace } = await runOne({
    id: 'AH-CTK-998-python-loop-assistant-turn',
    title: 'python host: the assistant turn appended after tool results',
    spec_clause: '4.2',
    capabilities: ['model_calls', 'tool_calls'],
    scenario: {
      input: { content: 'where is parcel P-88?', role: 'user' },
      tools: [lookupTool],
      model_script: [{ respond: callLookup }, { respond: { content: 'It is on its way.', tool_calls: [], finish_reason: 'stop' } }],
    },
    interceptor_script: [], // one interceptor, no rule: it allows everything
    expect: { interceptions: TOOL_LOOP, run_outcome: 'completed', final_output: 'It is on its way.', model_call_count: 2 },
  });
  t.equal(result.status, 'pass', JSON.stringify(result.failures));
  const second = (trace.model_calls[1] as { messages: unknown }).messages;
  t.same(second, [
    { role: 'user', content: 'where is parcel P-88?' },
    { role: 'tool', content: { status: 'in transit' } },
    { role: 'assistant', content: { tool_calls: callLookup.tool_calls } },
  ]);
});

t.test('a pre_model_call transform feeds that model call only, not the messages of the next one', async (t) => {
  const { result, trace } = await runOne({
    id: 'AH-CTK-998-python-loop-pre-model-scope',
    title: 'python host: pre_model_call transform scope',
    spec_clause: '4.3',
    capabilities: ['model_calls', 'tool_calls'],
    scenario: {
      input: { content: 'where is parcel P-88?', role: 'user' },
      tools: [lookupTool],
      model_script: [{ respond: callLookup }, { respond: { content: 'On its way.', tool_calls: [], finish_reason: 'stop' } }],
    },
    interceptor_script: [
      { at: 'pre_model_call', match: { 'messages[0].content': 'where is parcel P-88?' }, return: { decision: 'transform', transform: { path: '$target[0].content', value: 'a parcel question' } } },
    ],
    expect: { interceptions: TOOL_LOOP, run_outcome: 'completed', model_call_count: 2 },
  });
  t.equal(result.status, 'pass', JSON.stringify(result.failures));
  const first = JSON.stringify((trace.model_calls[0] as { messages: unknown }).messages);
  t.match(first, /a parcel question/, 'the first call got the transformed messages');
  // The next pre_model_call is built from the loop's own list: the user message as the input left it (the rule
  // matches it again, so that call is transformed too — by its own emission).
  const pres = (trace.contexts as Array<{ interception_point: string; messages: Array<{ content: unknown }> }>).filter((c) => c.interception_point === 'pre_model_call');
  t.equal(pres.length, 2);
  t.equal(pres[1]!.messages[0]!.content, 'where is parcel P-88?', 'the second pre_model_call sees the untransformed list');
  t.equal(pres[1]!.messages.length, 3, 'plus the tool result and the assistant turn');
});

t.test('a null answer is no output: the output emission fails closed with context_invalid (§4.2, §6.3)', async (t) => {
  const { result, trace } = await runOne({
    id: 'AH-CTK-998-python-loop-null-answer',
    title: 'python host: a null answer reaches output as null',
    spec_clause: '4.2, 6.3',
    capabilities: ['model_calls', 'structured_model_content'],
    scenario: {
      input: { content: 'summarize', role: 'user' },
      model_script: [{ respond: { content: { summary: 'short' }, tool_calls: [], finish_reason: 'stop' } }],
    },
    interceptor_script: [
      { at: 'post_model_call', return: { decision: 'transform', transform: { path: '$target.content' } } }, // value absent ≡ null
    ],
    // The output context is rejected before dispatch: the interceptor never sees it.
    expect: { interceptions: seen('agent_startup', 'input', 'pre_model_call', 'post_model_call', 'agent_shutdown'), run_outcome: 'blocked', final_output: null },
  });
  t.equal(result.status, 'pass', JSON.stringify(result.failures));
  const output = trace.records.find((r) => (r as { interception_point: string }).interception_point === 'output') as Record<string, unknown> | undefined;
  t.ok(output, 'the output emission is recorded');
  t.match(output, { verdict: { decision: 'deny', reason: 'host_error:context_invalid' }, decided_by: null, input_identity: null, verdicts: [] });
});

t.test('integers beyond 2^53 reach the host and come back exactly as written', async (t) => {
  const harness = createStdioHarness({ command, timeoutMs: 20_000 });
  t.teardown(() => harness.close?.());
  const surface = await harness.describe();
  t.ok(surface.capabilities.includes('int64_json') && surface.capabilities.includes('bigint_json'));
  const vectors = loadVectors(losslessVectors);
  t.equal(vectors.length, 2);
  const opts = { harness, surface, harnessLabel: 'python', timeoutMs: 20_000 };

  const int64 = await runVector(vectors[0]!, opts);
  t.equal(int64.result.status, 'pass', JSON.stringify(int64.result.failures));
  type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const args = (int64.trace.tool_invocations[0] as Obj).args as Obj;
  t.ok(isLosslessNumber(args.account), 'the tool received a lossless number');
  t.equal((args.account as LosslessNumber).value, '9223372036854775807', '2^63-1 byte for byte, not 9223372036854775808');
  const post = (int64.trace.contexts as Obj[]).find((c) => c.interception_point === 'post_tool_call')!;
  t.equal((post.tool_result.value.next as LosslessNumber).value, '-9223372036854775808');

  const big = await runVector(vectors[1]!, opts);
  t.equal(big.result.status, 'pass', JSON.stringify(big.result.failures));
  const bigArgs = (big.trace.tool_invocations[0] as Obj).args as Obj;
  t.equal((bigArgs.a as LosslessNumber).value, '340282366920938463463374607431768211457', '2^128+1 byte for byte');
  const modelCall = big.trace.model_calls[1] as Obj;
  // lossless-json's stringify writes an exact number's digits (JSON.stringify would call its toJSON first).
  t.match(stringify(modelCall.messages),
    /"total":115792089237316195423570985008687907853269984665640564039457584007913129639937\b/, 'the 2^256+1 tool result went back to the model exactly');
});

t.test('the CLI: run --harness-cmd "python3 examples/python-host/host.py" exits 0', async (t) => {
  const { execa } = await import('execa');
  const result = await execa(process.execPath, [path.join(PACKAGE_ROOT, 'bin/agent-hooks-ctk.js'), 'run', '--harness-cmd', 'python3 examples/python-host/host.py'], {
    cwd: PACKAGE_ROOT,
    reject: false,
  });
  t.equal(result.exitCode, 0, result.stdout.slice(-2000));
  t.match(result.stdout, /PASSED · \d+ vectors: \d+ passed, 0 failed, \d+ skipped/);
});
