// The LangChain integration in a user's hands: createAgent with a scripted chat model, the integration's
// middleware, plain interceptors, a resolver and a record sink. Deny, transform, approval, records.
import t from 'tap';
import { Verdict } from 'agent-hooks-ctk/host';
import { AgentHooksBlocked, LABELS_KEY, messagesToSpec } from './index.js';
import { refundScenario } from '../scenario.js';

const turn = refundScenario;

t.test('a blocked tool call reaches the model as an error ToolMessage (§6.2)', async (t) => {
  const { seen } = await turn((ctx) => (ctx.interception_point === 'pre_tool_call' ? Verdict.deny('over-cap') : Verdict.allow()));
  t.match(seen[1]!.at(-1), { content: 'blocked: over-cap', status: 'error' });
});

t.test('transforms take effect: input, pre_tool_call args, output (§4.3)', async (t) => {
  const { result, refunds, seen } = await turn((ctx) => {
    if (ctx.interception_point === 'input') return Verdict.transform('$target.content', 'refund order 417');
    if (ctx.interception_point === 'pre_tool_call') return Verdict.transform('$target.amount', 500);
    if (ctx.interception_point === 'output') return Verdict.transform('$target.content', 'redacted');
    return Verdict.allow();
  });
  t.same(messagesToSpec(seen[0]!), [{ role: 'user', content: 'refund order 417' }], 'the model got the transformed input');
  t.same(refunds, [{ amount: 500 }]);
  t.equal(result, 'redacted', 'invoke() returned the verdicted output');
});

t.test('a tool artifact JSON cannot carry: recorded as a §10.3 host projection failure, the model sees only the block', async (t) => {
  const contexts: string[] = [];
  const { result, records } = await turn((ctx) => (contexts.push(ctx.interception_point), Verdict.allow()), {}, () => ({ ledger: 'LEDGER-77', n: 2n ** 64n }));
  t.equal(result, 'done: "blocked: host_error:context_invalid"');
  t.notOk(contexts.includes('post_tool_call'), 'no interceptor saw a post_tool_call context');
  t.match(records.find((r) => r.interception_point === 'post_tool_call'), { verdict: { decision: 'deny', reason: 'host_error:context_invalid' }, input_identity: null, decided_by: null, verdicts: [] });
});

t.test('content_and_artifact: the model receives the verdicted artifact, never the tool\'s unevaluated content', async (t) => {
  const judged: unknown[] = [];
  const { seen } = await turn((ctx) => {
    if (ctx.interception_point === 'post_tool_call') judged.push(ctx.target);
    return Verdict.allow();
  }, {}, () => ({ ledger: 'LEDGER-77' }));
  t.same(judged, [{ ledger: 'LEDGER-77' }], 'the interceptor judged the artifact');
  t.equal(seen[1]!.at(-1)!.content, '{"ledger":"LEDGER-77"}', 'the model saw that value, not "refunded 840"');
});

t.test('§5.4: a tool result\'s labels are persisted on its ToolMessage and resurface on the next model call', async (t) => {
  const extensions: unknown[] = [];
  const { seen } = await turn((ctx) => {
    if (ctx.interception_point === 'pre_model_call') extensions.push(ctx.extensions);
    return ctx.interception_point === 'post_tool_call' ? Verdict.allow({ result_labels: ['pii'] }) : Verdict.allow();
  });
  t.same(extensions, [undefined, { guard: { source_labels: ['pii'] } }]);
  t.same(seen[1]!.at(-1)!.additional_kwargs[LABELS_KEY], { guard: ['pii'] });
});

t.test('§5.2: a transform LangChain cannot hold is recorded as transform_invalid, never as applied', async (t) => {
  const { result, seen, records } = await turn((ctx) => (ctx.interception_point === 'input' ? Verdict.transform('$target.content', { rich: true }) : Verdict.allow()));
  t.ok(result instanceof AgentHooksBlocked, 'the turn does not begin');
  t.equal(seen.length, 0);
  t.match(records.find((r) => r.interception_point === 'input'), { verdict: { decision: 'deny', reason: 'host_error:transform_invalid' }, decided_by: null });
});
