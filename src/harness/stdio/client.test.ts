// The stdio client against deliberately broken hosts: every misbehaviour fails the vector with a
// message that says what happened, and the next vector runs on a fresh process.
import t from 'tap';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../version.js';
import type { Harness, RunSetup } from '../contract.js';
import type { JsonObject } from '../../core/types.js';
import { createStdioHarness } from './client.js';

const fakeHost = path.join(PACKAGE_ROOT, 'src/harness/stdio/fixtures/fake-host.mjs');
const nodeCmd = (...args: string[]) => [process.execPath, fakeHost, ...args].map((a) => JSON.stringify(a)).join(' ');

interface Observed {
  contexts: JsonObject[];
  model: unknown[];
  tools: unknown[];
}

function makeSetup(vectorId: string, observed: Observed): RunSetup {
  return {
    vector_id: vectorId,
    scenario: { input: { content: 'hi', role: 'user' } },
    mode: 'enforce',
    composition: { profile: 'sequential/first_deny' },
    identity_provider: null,
    interceptors: [
      {
        index: 0,
        name: 'first',
        decide: async (context) => {
          observed.contexts.push(context);
          return { kind: 'return', value: { decision: 'allow' } };
        },
      },
    ],
    resolver: null,
    redact_for_approval: null,
    model: async (request) => {
      observed.model.push(request);
      return { content: 'model says hi', tool_calls: [], finish_reason: 'stop' };
    },
    tools: async (call) => {
      observed.tools.push(call);
      return { value: { looked: 'up' }, is_error: false };
    },
  };
}

async function runVector(harness: Harness, vectorId: string, observed: Observed = { contexts: [], model: [], tools: [] }) {
  await harness.setup(makeSetup(vectorId, observed));
  try {
    return await harness.run();
  } finally {
    await harness.teardown();
  }
}

t.test('a well-behaved host: the CTK observes model, tool and interceptor calls itself', async (t) => {
  const logs: string[] = [];
  const harness = createStdioHarness({ command: nodeCmd(), onLog: (l) => logs.push(l) });
  t.teardown(() => harness.close?.());
  const surface = await harness.describe();
  t.equal(surface.protocol, 'agent-hooks-ctk/1');
  t.equal(surface.buffered_output, true, 'buffered_output defaults to true (§12.1a)');
  const observed: Observed = { contexts: [], model: [], tools: [] };
  const report = await runVector(harness, 'good', observed);
  t.equal(report.outcome, 'completed');
  t.same(report.final_output, { model: 'model says hi', tool: { looked: 'up' }, action: { kind: 'return', value: { decision: 'allow' } } });
  t.same(observed.model, [{ model_id: 'mock', messages: [{ role: 'user', content: 'hi' }] }]);
  t.same(observed.tools, [{ id: 'tc-1', name: 'lookup', args: { q: 1 } }]);
  t.same(observed.contexts, [{ interception_point: 'output', target: { looked: 'up' } }]);
  t.ok(report.log?.includes('ran good'), 'stderr lines are kept in the report log');
  t.ok(logs.includes('ran good'), 'and passed to onLog');
  // The process is reused across vectors.
  t.equal((await runVector(harness, 'good-again')).outcome, 'completed');
});

const misbehaviours: Array<[string, RegExp]> = [
  ['hang', /did not answer "run" within 3000 ms.*killed/s],
  ['exit', /exited with code 3 while "run" was pending.*about to fall over/s],
  ['not-json', /protocol violation while "run" was pending: it wrote a line that is not JSON .*this is not json/],
  ['not-jsonrpc', /not JSON-RPC 2\.0 \(the message lacks "jsonrpc": "2\.0"\)/],
  ['unknown-method', /it called method "frobnicate", which the protocol does not define/],
  ['stray-response', /response to id 4242, which was never sent/],
  ['huge-line', /longer than the 16777216-byte limit/],
  ['invalid-params', /it called "intercept" with invalid params: intercept\.index 7 is not a registered interceptor/],
  ['bad-report', /run answer is unusable: run\.outcome must be/],
  ['unknown-stream', /it called "model_chunk" for stream "s99", which no model answer of this run opened/],
  ['bad-released', /run answer is unusable: run\.released_output must be a string/],
];

for (const [vectorId, expected] of misbehaviours) {
  t.test(`misbehaviour "${vectorId}" fails that vector only, with a message saying what happened`, async (t) => {
    // Only the hang needs a short deadline; the others fail as soon as the host misbehaves.
    const harness = createStdioHarness({ command: nodeCmd(), timeoutMs: vectorId === 'hang' ? 3000 : 20_000 });
    t.teardown(() => harness.close?.());
    await harness.describe();
    await t.rejects(runVector(harness, vectorId), expected);
    const next = await runVector(harness, 'after');
    t.equal(next.outcome, 'completed', 'the next vector runs (on a restarted process where needed)');
  });
}

t.test('a streamed model answer crosses as {stream} and is pulled with model_chunk; the CTK counts what the host read', async (t) => {
  const harness = createStdioHarness({ command: nodeCmd() });
  t.teardown(() => harness.close?.());
  await harness.describe();
  const streamSetup = (id: string, pulled: { n: number; ended: boolean }): RunSetup => ({
    ...makeSetup(id, { contexts: [], model: [], tools: [] }),
    model: async () => ({
      [Symbol.asyncIterator]() {
        const chunks = [{ content: 'Hel' }, { content: 'lo', finish_reason: 'stop' }];
        let i = 0;
        return {
          async next() {
            if (i >= chunks.length) {
              pulled.ended = true;
              return { done: true as const, value: undefined };
            }
            pulled.n++;
            return { done: false as const, value: chunks[i++]! };
          },
        };
      },
    }),
  });
  for (const [id, expected] of [['stream-all', { n: 2, ended: true }], ['stream-one', { n: 1, ended: false }]] as const) {
    const pulled = { n: 0, ended: false };
    await harness.setup(streamSetup(id, pulled));
    const report = await harness.run();
    await harness.teardown();
    t.same(pulled, expected, `${id}: the CTK saw exactly what the host pulled`);
    t.match(report.final_output, { answer: { stream: 's1' } });
    t.equal(report.released_output, id === 'stream-all' ? 'Hello' : 'Hel');
  }
});

t.test('a stdio host cannot declare projection_faults (values JSON cannot carry do not cross the protocol)', async (t) => {
  const harness = createStdioHarness({ command: nodeCmd('--projection-faults') });
  t.teardown(() => harness.close?.());
  await t.rejects(harness.describe(), /declares projection_faults, which only an in-process harness can carry out/);
});

t.test('a protocol mismatch is a clear error, repeated on every setup', async (t) => {
  const harness = createStdioHarness({ command: nodeCmd('--protocol', 'agent-hooks-ctk/0') });
  t.teardown(() => harness.close?.());
  await t.rejects(harness.describe(), /speaks protocol "agent-hooks-ctk\/0" but this CTK speaks "agent-hooks-ctk\/1"/);
  await t.rejects(runVector(harness, 'good'), /speaks protocol "agent-hooks-ctk\/0"/);
});

t.test('a describe without protocol is named as such', async (t) => {
  const harness = createStdioHarness({ command: nodeCmd('--protocol', 'none') });
  t.teardown(() => harness.close?.());
  await t.rejects(harness.describe(), /has no "protocol" member; a stdio host must declare protocol "agent-hooks-ctk\/1"/);
});

t.test('a command that cannot start fails with the reason, never a crash', async (t) => {
  const harness = createStdioHarness({ command: 'definitely-not-a-real-binary-ctk --flag' });
  t.teardown(() => harness.close?.());
  await t.rejects(harness.describe(), /could not be started.*definitely-not-a-real-binary-ctk/s);
});

t.test('junk between vectors stops the process, is logged, and the next vector runs on a fresh one', async (t) => {
  const logs: string[] = [];
  const harness = createStdioHarness({ command: nodeCmd(), onLog: (l) => logs.push(l) });
  t.teardown(() => harness.close?.());
  await harness.describe();
  t.equal((await runVector(harness, 'junk-after-teardown')).outcome, 'completed');
  await new Promise((r) => setTimeout(r, 200));
  t.equal((await runVector(harness, 'after')).outcome, 'completed');
  t.ok(logs.some((l) => /protocol violation between requests: it wrote a line that is not JSON .*stray junk/.test(l)), 'the violation is in the log');
});
