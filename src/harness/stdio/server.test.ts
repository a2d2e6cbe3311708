// serveHarnessOverStdio: any in-process Harness behind the protocol. Driven here line by line over
// in-memory streams, playing the CTK side by hand.
import t from 'tap';
import { PassThrough } from 'node:stream';
import type { Harness, RunSetup } from '../contract.js';
import { serveHarnessOverStdio } from './server.js';

function fakeHarness(seen: { setup?: RunSetup }): Harness {
  return {
    describe: async () => ({
      name: 'fake', version: '1', capabilities: [], buffered_output: true, profiles: { 'sequential/first_deny': { on_approval: ['stop'] } },
      identity_providers: [null], modes: ['enforce'], postures: { tool_seam_host_error: 'continue' },
    }),
    setup: async (run) => {
      seen.setup = run;
    },
    run: async () => {
      const s = seen.setup!;
      const action = await s.interceptors[0]!.decide({ interception_point: 'input', target: 'x' });
      const resolution = await s.resolver!.decide({ context_identity: null, interception_point: 'input', verdict: { decision: 'deny', approval: {} }, context: {} as never });
      const model = await s.model({ model_id: 'mock', messages: [] });
      const tool = await s.tools({ id: 't1', name: 'lookup', args: {} });
      if (s.vector_id === 'boom') throw new Error('the framework fell over');
      return { outcome: 'completed', final_output: { action, resolution, model, tool } as never, identities: [], records: [] };
    },
    teardown: async () => undefined,
  };
}

function connect(harness: Harness) {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  let buffer = '';
  output.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      lines.push(JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>);
      buffer = buffer.slice(nl + 1);
      waiters.splice(0).forEach((w) => w());
    }
  });
  const logs: string[] = [];
  const done = serveHarnessOverStdio(harness, input, output, { log: (l) => logs.push(l) });
  const send = (msg: object) => input.write(JSON.stringify(msg) + '\n');
  const next = async (): Promise<Record<string, unknown>> => {
    while (lines.length === 0) await new Promise<void>((r) => waiters.push(r));
    return lines.shift()!;
  };
  return { send, next, logs, end: () => input.end(), done };
}

const setupParams = (vectorId: string) => ({
  vector_id: vectorId, scenario: {}, mode: 'enforce', composition: { profile: 'sequential/first_deny' }, identity_provider: null,
  interceptors: [{ index: 0, name: 'ctk-0' }], resolver: true, redact_for_approval: null,
});

t.test('describe adds the protocol; run proxies every callback to the CTK side', async (t) => {
  const seen: { setup?: RunSetup } = {};
  const c = connect(fakeHarness(seen));
  c.send({ jsonrpc: '2.0', id: 1, method: 'describe', params: {} });
  t.match(await c.next(), { id: 1, result: { name: 'fake', protocol: 'agent-hooks-ctk/1' } });
  c.send({ jsonrpc: '2.0', id: 2, method: 'setup', params: setupParams('v1') });
  t.same(await c.next(), { jsonrpc: '2.0', id: 2, result: null });
  t.same(seen.setup!.interceptors.map((i) => [i.index, i.name]), [[0, 'ctk-0']]);
  c.send({ jsonrpc: '2.0', id: 3, method: 'run', params: {} });
  const answers: Record<string, unknown> = {
    intercept: { kind: 'mutate' },
    resolve: { kind: 'return', value: { outcome: 'reject' } },
    model: { content: 'hi', tool_calls: [], finish_reason: 'stop' },
    tool: { value: { found: true }, is_error: false },
  };
  for (const method of ['intercept', 'resolve', 'model', 'tool']) {
    const req = await c.next();
    t.equal(req.method, method, `the host asks the CTK: ${method}`);
    c.send({ jsonrpc: '2.0', id: req.id, result: answers[method] });
  }
  const report = await c.next();
  t.match(report, { id: 3, result: { outcome: 'completed', final_output: { action: { kind: 'mutate' }, resolution: { kind: 'return' }, model: { content: 'hi' }, tool: { value: { found: true } } } } });
  c.send({ jsonrpc: '2.0', id: 4, method: 'teardown', params: {} });
  t.same(await c.next(), { jsonrpc: '2.0', id: 4, result: null });
  c.end();
  await c.done;
});

t.test('describe drops projection_faults and non_json_verdicts; a {stream} model answer is pulled chunk by chunk with model_chunk, and no further once the host stops', async (t) => {
  const seen: { setup?: RunSetup } = {};
  const streaming: Harness = {
    describe: async () => ({ ...(await fakeHarness(seen).describe()), capabilities: ['model_calls', 'streaming', 'projection_faults', 'non_json_verdicts'] }),
    setup: async (run) => {
      seen.setup = run;
    },
    run: async () => {
      const reply = await seen.setup!.model({ model_id: 'mock', messages: [] });
      const got: unknown[] = [];
      for await (const chunk of reply as AsyncIterable<unknown>) {
        got.push(chunk);
        if (got.length === 1) break; // the host stops reading: return() ends the stream
      }
      return { outcome: 'blocked', final_output: null, identities: [], records: [], released_output: '', persisted: '' , outputs: got as never };
    },
    teardown: async () => undefined,
  };
  const c = connect(streaming);
  c.send({ jsonrpc: '2.0', id: 1, method: 'describe', params: {} });
  t.same(((await c.next()).result as { capabilities: string[] }).capabilities, ['model_calls', 'streaming']);
  c.send({ jsonrpc: '2.0', id: 2, method: 'setup', params: setupParams('s') });
  await c.next();
  c.send({ jsonrpc: '2.0', id: 3, method: 'run', params: {} });
  const model = await c.next();
  t.equal(model.method, 'model');
  c.send({ jsonrpc: '2.0', id: model.id, result: { stream: 's1' } });
  const pull = await c.next();
  t.same([pull.method, pull.params], ['model_chunk', { stream: 's1' }]);
  c.send({ jsonrpc: '2.0', id: pull.id, result: { content: 'Hel' } });
  const report = await c.next();
  t.match(report, { id: 3, result: { outcome: 'blocked', outputs: [{ content: 'Hel' }] } }, 'one pull, then the run answered: nothing more was requested');
  c.end();
  await c.done;
});

t.test('errors: unknown method, invalid setup params, a host method that throws', async (t) => {
  const seen: { setup?: RunSetup } = {};
  const c = connect(fakeHarness(seen));
  c.send({ jsonrpc: '2.0', id: 1, method: 'frobnicate', params: {} });
  t.match(await c.next(), { id: 1, error: { code: -32601 } });
  c.send({ jsonrpc: '2.0', id: 2, method: 'setup', params: { ...setupParams('v'), interceptors: 'all of them' } });
  t.match(await c.next(), { id: 2, error: { code: -32602, message: /interceptors must be an array/ } });
  c.send({ jsonrpc: '2.0', id: 3, method: 'setup', params: setupParams('boom') });
  await c.next();
  c.send({ jsonrpc: '2.0', id: 4, method: 'run', params: {} });
  for (let i = 0; i < 4; i++) {
    const req = await c.next();
    c.send({ jsonrpc: '2.0', id: req.id, result: req.method === 'tool' ? { value: 1, is_error: false } : { kind: 'return', value: null } });
  }
  t.match(await c.next(), { id: 4, error: { code: -32001, message: /run failed in the host: the framework fell over/ } });
  c.send({ jsonrpc: '2.0', id: 99, result: null });
  c.end();
  await c.done;
  t.match(c.logs.join('\n'), /protocol violation by the CTK side: it sent a response to id 99/);
});
