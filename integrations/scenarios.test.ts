// Every registered integration in a user's hands, alike: its real agent loop with a scripted model (the package's
// refundScenario: refund(840), then an answer quoting the last message), plain interceptors, a resolver and a record
// sink. What differs per framework (message shapes, streaming, labels on its own objects) is tested in its package.
import t from 'tap';
import type { InterceptionRecord, Json } from 'agent-hooks-ctk/core';
import { AgentHooksBlocked, Verdict, type FrameworkHooksOptions, type Interceptor } from 'agent-hooks-ctk/host';
import { FRAMEWORKS, unsupported } from './frameworks.js';

/** What every package's refundScenario reports of its one turn. */
interface RefundRun {
  /** The answer the turn returned, undefined when it threw. */
  answer: Json | undefined;
  /** What the turn threw (the AgentHooksBlocked however the framework wrapped it). */
  error: unknown;
  modelCalls: number;
  refunds: unknown[];
  records: InterceptionRecord[];
}
type RefundScenario = (intercept: Interceptor['intercept'], extra?: Partial<FrameworkHooksOptions>) => Promise<RefundRun>;

const TEN_POINTS = ['agent_startup', 'input', 'pre_model_call', 'post_model_call', 'pre_tool_call', 'post_tool_call', 'pre_model_call', 'post_model_call', 'output', 'agent_shutdown'];
const at = (point: string, verdict: () => ReturnType<Interceptor['intercept']>): Interceptor['intercept'] => (ctx) => (ctx.interception_point === point ? verdict() : Verdict.allow());

for (const fw of FRAMEWORKS) {
  t.test(fw.name, { skip: unsupported(fw) }, async (t) => {
    const specifier: string = `${fw.package}/scenario`;
    const { refundScenario: turn } = (await import(specifier)) as { refundScenario: RefundScenario };

    t.test('allow: the whole loop is bracketed, records reach the sink in order', async (t) => {
      const { answer, refunds, records } = await turn(() => Verdict.allow());
      t.equal(answer, 'done: "refunded 840"');
      t.same(refunds, [{ amount: 840 }]);
      t.same(records.map((r) => r.interception_point), TEN_POINTS);
      t.same(records.map((r) => r.sequence), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      t.equal(records[0]!.composition.profile, 'sequential/first_deny');
    });

    t.test('deny at pre_tool_call: the tool never runs, the model sees the block as the tool error (§6, §6.2)', async (t) => {
      const { answer, refunds, records } = await turn(at('pre_tool_call', () => Verdict.deny('over-cap')));
      t.same(refunds, []);
      t.equal(answer, 'done: "blocked: over-cap"');
      t.notOk(records.some((r) => r.interception_point === 'post_tool_call'), 'no post_tool_call after a blocked pre (§6.2)');
    });

    t.test('deny at post_model_call: the response is discarded, its tool call never runs, the turn throws (§6.1)', async (t) => {
      const { error, refunds, records } = await turn(at('post_model_call', () => Verdict.deny('unsafe')));
      t.ok(error instanceof AgentHooksBlocked);
      t.equal((error as AgentHooksBlocked).point, 'post_model_call');
      t.same(refunds, []);
      t.same(records.map((r) => r.interception_point), ['agent_startup', 'input', 'pre_model_call', 'post_model_call', 'agent_shutdown']);
    });

    t.test('deny at output: the answer is not returned (§6); the session still shuts down', async (t) => {
      const { error, records } = await turn(at('output', () => Verdict.deny('leak')));
      t.ok(error instanceof AgentHooksBlocked);
      t.equal((error as AgentHooksBlocked).point, 'output');
      t.equal(records.at(-1)!.interception_point, 'agent_shutdown');
    });

    t.test('approvals go through the user resolver: approved, the tool runs; rejected, it stays a deny (§9)', async (t) => {
      const requests: string[] = [];
      const approved = await turn(at('pre_tool_call', () => Verdict.escalate('needs-human')), {
        resolver: (req) => (requests.push(req.interception_point), { outcome: 'approve', context_identity: req.context_identity, verdict: { decision: 'allow' } }),
      });
      t.same(requests, ['pre_tool_call']);
      t.same(approved.refunds, [{ amount: 840 }]);
      t.equal(approved.records.find((r) => r.interception_point === 'pre_tool_call')!.resolved_by, 'approval');
      const rejected = await turn(at('pre_tool_call', () => Verdict.escalate('needs-human')), {
        resolver: (req) => ({ outcome: 'reject', context_identity: req.context_identity, verdict: { decision: 'deny', reason: 'human-said-no' } }),
      });
      t.same(rejected.refunds, []);
      t.equal(rejected.records.find((r) => r.interception_point === 'pre_tool_call')!.resolved_by, 'rejection');
    });

    t.test('a denied startup: no turn begins, shutdown still closes the trail (§6.1a)', async (t) => {
      const { error, modelCalls, records } = await turn(at('agent_startup', () => Verdict.deny('closed')));
      t.ok(error instanceof AgentHooksBlocked);
      t.equal(modelCalls, 0);
      t.same(records.map((r) => r.interception_point), ['agent_startup', 'agent_shutdown']);
    });
  });
}
