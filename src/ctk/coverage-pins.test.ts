// Unit tests pinning catalogue requirements (vectors/requirements.yaml) that no vector can express and no other
// unit test covers: what the reference host does with data a scripted run never carries.
import t from 'tap';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { createEmitter } from '../host/emitter.js';
import type { AgentContext } from '../core/types.js';
import { createReferenceHarness } from '../harness/reference-harness.js';
import { defaultVectorPaths, loadVectors } from './load.js';
import { runVector } from './runner.js';

const suite = loadVectors(defaultVectorPaths());
const vector = (prefix: string) => suite.find((lv) => lv.vector.id.startsWith(prefix))!;

t.test('§4.6: extensions reach every interceptor verbatim, foreign namespaces uninterpreted', async (t) => {
  const seen: AgentContext[] = [];
  const foreign = { vendor_x: { nested: [1, { deep: 'value' }], flag: null }, acs: { policy: 'p-7' } };
  const e = createEmitter({
    agent: { id: 'agent-a', framework: 'ctk-test' },
    session: { id: 'session-1' },
    interceptors: [{ intercept: (c: AgentContext) => (seen.push(c), { decision: 'allow' }) }, { intercept: (c: AgentContext) => (seen.push(c), { decision: 'allow' }) }],
  });
  const em = await e.emit('pre_tool_call', { tool_call: { id: 'c1', name: 'lookup', args: { q: 1 } }, extensions: foreign });
  t.equal(em.verdict.decision, 'allow');
  t.equal(seen.length, 2);
  for (const c of seen) t.same(c.extensions, foreign, 'every interceptor receives the extensions unchanged');
  t.same(em.context!.extensions, foreign, 'the enforcement context keeps them unchanged too');
});

t.test('§4.1: agent.id is stable across sessions and session.id across every hook of one session', async (t) => {
  const agentIds = new Set<unknown>();
  const sessionIds = new Set<unknown>();
  for (const prefix of ['AH-CTK-200', 'AH-CTK-358']) {
    const harness = createReferenceHarness();
    const { result, trace } = await runVector(vector(prefix), { harness, surface: await harness.describe(), harnessLabel: 'test', timeoutMs: 10_000 });
    t.equal(result.status, 'pass');
    const contexts = trace.contexts as Array<{ agent: { id: unknown }; session: { id: unknown } }>;
    const inSession = new Set(contexts.map((c) => c.session.id));
    t.equal(inSession.size, 1, `${prefix}: one session.id on every hook`);
    t.same(new Set(trace.records.map((r) => (r as { session_id: unknown }).session_id)), inSession, `${prefix}: records carry that session id`);
    for (const c of contexts) agentIds.add(c.agent.id);
    sessionIds.add([...inSession][0]);
  }
  t.equal(agentIds.size, 1, 'the same agent keeps one agent.id across sessions');
  t.equal(sessionIds.size, 2, 'the two sessions have distinct ids');
});

t.test('§5.3/§14: the host never dereferences evidence verification_pointers', async (t) => {
  const attempts: string[] = [];
  const origFetch = globalThis.fetch;
  const origHttp = http.request;
  const origHttps = https.request;
  const origConnect = net.connect;
  const refuse = (what: string) => (...args: unknown[]) => {
    attempts.push(`${what} ${String(args[0])}`);
    throw new Error('network access during a CTK run');
  };
  globalThis.fetch = refuse('fetch') as unknown as typeof fetch;
  (http as { request: unknown }).request = refuse('http.request');
  (https as { request: unknown }).request = refuse('https.request');
  (net as { connect: unknown }).connect = refuse('net.connect');
  try {
    for (const prefix of ['AH-CTK-346', 'AH-CTK-260']) {
      const harness = createReferenceHarness();
      const { result } = await runVector(vector(prefix), { harness, surface: await harness.describe(), harnessLabel: 'test', timeoutMs: 10_000 });
      t.equal(result.status, 'pass', `${prefix} passes with the network refused`);
    }
  } finally {
    globalThis.fetch = origFetch;
    (http as { request: unknown }).request = origHttp;
    (https as { request: unknown }).request = origHttps;
    (net as { connect: unknown }).connect = origConnect;
  }
  t.same(attempts, [], 'no network access was attempted');
});
