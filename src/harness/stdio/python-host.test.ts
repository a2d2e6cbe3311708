// The Python example host (examples/python-host/host.py) through the stdio harness: it passes every
// applicable project vector, skips the rest for undeclared surface, and carries integers beyond
// 2^53 (a signed 64-bit one and wider ones) byte-faithfully in both directions.
import t from 'tap';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../version.js';
import { isLosslessNumber, type LosslessNumber } from 'lossless-json';
import { defaultVectorPaths, loadVectors } from '../../ctk/load.js';
import { runSuite, runVector } from '../../ctk/runner.js';
import { createStdioHarness } from './client.js';

const command = `python3 ${JSON.stringify(path.join(PACKAGE_ROOT, 'examples/python-host/host.py'))}`;
// The suite's two big-integer vectors (int64_json, bigint_json).
const losslessVectors = ['AH-CTK-381-int64-tool-args-exact.json', 'AH-CTK-382-bigint-beyond-64-bits-exact.json'].map((f) => path.join(PACKAGE_ROOT, 'vectors', f));

t.test('the Python host passes every applicable vector and skips the rest with reasons', async (t) => {
  const harness = createStdioHarness({ command, timeoutMs: 20_000 });
  t.teardown(() => harness.close?.());
  const surface = await harness.describe();
  t.equal(surface.name, 'python-example-host');
  const report = await runSuite(loadVectors(defaultVectorPaths()), { harness, surface, harnessLabel: `stdio:${command}`, timeoutMs: 20_000 });
  const failed = report.results.filter((r) => r.status === 'fail');
  t.same(failed.map((r) => `${r.id}: ${r.reason ?? r.failures[0]?.message}`), [], 'no vector fails');
  t.ok(report.summary.passed > 50, `${report.summary.passed} vectors passed`);
  for (const r of report.results.filter((x) => x.status === 'skip')) {
    t.match(r.reason, /^host does not declare /, `${r.id} is skipped for an undeclared surface part`);
  }
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
  t.match(JSON.stringify(modelCall.messages, (_k, v: unknown) => (isLosslessNumber(v) ? `#${(v as LosslessNumber).value}` : v)),
    /#115792089237316195423570985008687907853269984665640564039457584007913129639937/, 'the 2^256+1 tool result went back to the model exactly');
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
