// The integrations' shared glue (framework-kit.ts) behaves as they rely on it, helper by helper: the Node checks, tool
// arguments, a tool's run, the latch that keeps the hooks' own failure, and what a CTK run cannot reach through a host
// built on the hook session (the mutation run's `Stryker disable` comments in framework-kit.ts name these tests).
import t from 'tap';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { AgentHooksBlocked } from './session.js';
import { Verdict } from './verdict.js';
import {
  AgentHooksInexpressible,
  asContent,
  attempt,
  enginesUnmet,
  failureLatch,
  frameworkHooks,
  holdsText,
  installedVersion,
  isHooksFailure,
  javascriptNotDeclared,
  nodeOlderThan,
  ownVersion,
  runTool,
  toolArgs,
  ToolFailed,
  toolErrorValue,
} from './framework-kit.js';

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
  t.same(toolArgs(null), {});
  t.same(toolArgs(7), {});
  t.same(toolArgs('null'), { value: null });
  t.same(toolArgs('[1,2]'), { value: [1, 2] });
  t.same(toolArgs('"x"'), { value: 'x' });
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

const FW = { id: 'fw', title: 'the Framework' };

t.test('asContent: strings and objects as they are, every other JSON value wrapped as {value} (§4.2)', async (t) => {
  t.equal(asContent('text'), 'text');
  const o = { a: 1 };
  t.equal(asContent(o), o);
  for (const v of [1, true, null, [1, 2]]) t.same(asContent(v as never), { value: v });
});

t.test('AgentHooksInexpressible names the framework and what it cannot carry', async (t) => {
  const e = new AgentHooksInexpressible(FW, 'a transformed tool call');
  t.equal(e.name, 'AgentHooksInexpressible');
  t.equal(e.framework, 'fw');
  t.equal(e.message, 'agent-hooks (fw): a transformed tool call; the Framework cannot carry it, so the action fails closed');
});

t.test('attempt: null when the rebuild succeeds, else its error message (or the thrown value as text)', async (t) => {
  t.equal(attempt(() => 1), null);
  t.equal(attempt(() => {
    throw new TypeError('no form for it');
  }), 'no form for it');
  t.equal(attempt(() => {
    throw 42;
  }), '42');
});

t.test('holdsText: text content is held; anything else is refused, naming the framework and the point', async (t) => {
  t.equal(holdsText(FW)({ content: 'x', role: 'user' }), null);
  t.equal(holdsText(FW)({ content: { rich: true }, role: 'user' }), 'the Framework holds text in the input message');
  t.equal(holdsText(FW, 'output')({ content: 3 }), 'the Framework holds text in the output message');
  t.equal(holdsText(FW)(null), 'the Framework holds text in the input message');
});

t.test('ToolFailed carries the value as given; its message is the text, or the value as JSON, or says it has none', async (t) => {
  const s = new ToolFailed('disk full');
  t.equal(s.name, 'ToolFailed');
  t.equal(s.message, 'disk full');
  t.equal(String(s), 'disk full', 'toString is the message alone');
  t.equal(new ToolFailed({ code: 7 }).message, '{"code":7}');
  t.equal(new ToolFailed(undefined).message, 'tool failed');
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const c = new ToolFailed(cyclic);
  t.equal(c.message, 'tool failed (its value has no JSON form)');
  t.equal(c.value, cyclic);
});

t.test('toolErrorValue: a ToolFailed gives its value, another error its message, anything else its text', async (t) => {
  const v = { code: 7 };
  t.equal(toolErrorValue(new ToolFailed(v)), v);
  t.equal(toolErrorValue(new RangeError('bad')), 'bad');
  t.equal(toolErrorValue('plain'), 'plain');
});

t.test('frameworkHooks: startSession emits agent_startup with the tool names, from names, named tools or a record', async (t) => {
  const seen: unknown[] = [];
  const hooks = frameworkHooks(FW, { agent: { id: 'a' }, interceptors: [{ name: 'g', intercept: (ctx) => (seen.push(ctx.target), Verdict.allow()) }] }, (h) => h);
  await hooks.startSession({ tools: ['b', 'a'] });
  await hooks.startSession({ tools: [{ name: 'd' }, { name: 'c' }] });
  await hooks.startSession({ tools: { f: {}, e: {} } });
  await hooks.startSession();
  t.same(seen, [{ tools_registered: ['a', 'b'] }, { tools_registered: ['c', 'd'] }, { tools_registered: ['e', 'f'] }, { tools_registered: [] }]);
});

t.test('javascriptNotDeclared: the shared not_declared reasons name the parser', async (t) => {
  t.same(javascriptNotDeclared('JSON.parse'), {
    int64_json: 'JavaScript numbers (JSON.parse) round integers beyond 2^53-1',
    bigint_json: 'JavaScript numbers (JSON.parse) round integers beyond 2^53-1',
    incremental_output: 'the integration buffers: nothing is released before the output verdict (§12.1a)',
  });
});

t.test('installedVersion and ownVersion read the nearest package.json; a package without ./package.json export is found by walking up', async (t) => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'fw-kit-'));
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'host-app', version: '3.1.4' }));
  const mod = path.join(root, 'node_modules');
  mkdirSync(path.join(mod, 'open', 'lib'), { recursive: true });
  writeFileSync(path.join(mod, 'open', 'package.json'), JSON.stringify({ name: 'open', version: '1.2.3', main: 'lib/index.js' }));
  writeFileSync(path.join(mod, 'open', 'lib', 'index.js'), '');
  mkdirSync(path.join(mod, 'closed', 'lib'), { recursive: true });
  writeFileSync(path.join(mod, 'closed', 'package.json'), JSON.stringify({ name: 'closed', version: '4.5.6', exports: { '.': './lib/index.js' } }));
  writeFileSync(path.join(mod, 'closed', 'lib', 'package.json'), JSON.stringify({ type: 'commonjs', version: '0.0.0' }));
  writeFileSync(path.join(mod, 'closed', 'lib', 'index.js'), '');
  const from = pathToFileURL(path.join(root, 'src', 'app.js')).href;
  mkdirSync(path.join(root, 'src'));
  t.equal(installedVersion('open', from), '1.2.3');
  t.equal(installedVersion('closed', from), '4.5.6', 'walks up past a package.json of another name');
  t.equal(ownVersion(from), '3.1.4');
  t.throws(() => installedVersion('absent', from));
  t.throws(() => ownVersion(pathToFileURL(path.join(path.parse(root).root, 'no-such-dir', 'x.js')).href), /no package.json above/);
});
