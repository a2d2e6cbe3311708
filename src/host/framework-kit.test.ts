// The integrations' shared glue behaves as they rely on it: the Node checks, tool arguments, a tool's run, and the
// latch that keeps the hooks' own failure through a framework that rewraps errors.
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { AgentHooksBlocked } from './session.js';
import { AgentHooksInexpressible, enginesUnmet, failureLatch, isHooksFailure, nodeOlderThan, runTool, toolArgs, ToolFailed } from './framework-kit.js';

const ACME = { id: 'acme', title: 'Acme' };

t.test('nodeOlderThan compares as many parts as the requirement names', async (t) => {
  t.equal(nodeOlderThan('22.13', '20.20.2'), true);
  t.equal(nodeOlderThan('22.13', '22.12.9'), true);
  t.equal(nodeOlderThan('22.13', '22.13.0'), false);
  t.equal(nodeOlderThan('22.13', '24.1.0'), false);
  t.equal(nodeOlderThan('22', '22.0.0'), false);
  t.equal(nodeOlderThan('22', '21.99.1'), true);
});

t.test("enginesUnmet reads engines.node of the package a module belongs to, and names both versions", async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'framework-kit-'));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: '@acme/hooks', version: '1.0.0', engines: { node: '>=22.13' } }));
  const from = pathToFileURL(path.join(dir, 'dist', 'x.js')).href;
  t.equal(enginesUnmet(from, '24.0.0'), false);
  t.equal(enginesUnmet(from, '20.19.0'), '@acme/hooks needs Node >= 22.13 (its package.json engines); this is Node 20.19.0');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: '@acme/hooks', version: '1.0.0' }));
  t.equal(enginesUnmet(from, '18.0.0'), false, 'no engines: nothing to fall short of');
});

t.test('toolArgs: JSON text parsed into an object, other values wrapped, text that is not JSON kept under the given key', async (t) => {
  t.same(toolArgs('{"a":1}'), { a: 1 });
  t.same(toolArgs(''), {});
  t.same(toolArgs('3'), { value: 3 });
  t.same(toolArgs('{oops'), { unparsed_input: '{oops' });
  t.same(toolArgs('{oops', 'unparsed_arguments'), { unparsed_arguments: '{oops' });
  t.same(toolArgs({ q: 'x' }), { q: 'x' });
  t.same(toolArgs([1]), {});
});

t.test("runTool: the tool's value as it gave it; a failure as is_error with its value; the hooks' own errors propagate", async (t) => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  t.same(await runTool(() => 42), { value: 42, is_error: false });
  t.equal((await runTool(async () => cyclic)).value, cyclic, 'unprojected: the session projects it (§10.3)');
  t.same(await runTool(() => { throw new ToolFailed({ code: 7 }); }), { value: { code: 7 }, is_error: true });
  t.same(await runTool(() => { throw new Error('boom'); }), { value: 'boom', is_error: true });
  await t.rejects(runTool(() => { throw new AgentHooksInexpressible(ACME, 'x'); }), AgentHooksInexpressible);
});

t.test('failureLatch keeps the first hooks failure, rethrows it on every later step, and forgets it on reset', async (t) => {
  const latch = failureLatch();
  t.equal(await latch.guard(async () => 1), 1);
  await t.rejects(latch.guard(async () => { throw new Error('framework'); }), /framework/);
  t.equal(latch.failure, undefined, "a framework's own error is not the hooks'");
  const blocked = new AgentHooksBlocked('input', { decision: 'deny', reason: 'no' });
  await t.rejects(latch.guard(async () => { throw blocked; }));
  t.equal(latch.failure, blocked);
  let ran = false;
  await t.rejects(latch.guard(async () => (ran = true)), blocked);
  t.equal(ran, false, 'a step after the failure does not run (it would emit again)');
  latch.reset();
  t.equal(await latch.guard(async () => 2), 2);
  t.ok(isHooksFailure(blocked) && isHooksFailure(new AgentHooksInexpressible(ACME, 'x')) && !isHooksFailure(new Error('x')));
});
