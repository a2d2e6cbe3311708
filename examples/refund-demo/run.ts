// The announcement's refund demo on the reference host: a guard escalates a $840 refund over a $500 cap, a human
// approver shown the exact call and its identity approves, the refund runs; then the same approval is replayed
// against a mutated $8,400 call, the echo rule (§9) refuses it, and that refund never runs.
// Run: npm run demo   (deterministic; no network, no API keys)
import {
  Verdict,
  createAgentLoop,
  createEmitter,
  type AgentLoop,
  type ApprovalResolver,
  type Interceptor,
  type LoopModelResponse,
} from '../../src/host/index.js';
import type { AgentContext, ApprovalRequest, InterceptionRecord, JsonObject } from '../../src/core/index.js';

const CAP = 500;

/** The refund rule from the announcement, as an interceptor. */
const refundGuard: Interceptor = {
  name: 'refund-guard',
  intercept(context: AgentContext) {
    if (context.interception_point !== 'pre_tool_call') return Verdict.allow();
    const call = context.tool_call as { name: string; args: { amount?: number } };
    if (call.name === 'issue_refund' && typeof call.args.amount === 'number' && call.args.amount > CAP) {
      return Verdict.escalate('refund_over_limit', 'requires human approval');
    }
    return Verdict.allow();
  },
};

/** The approver: approves the first request it is shown, then an attacker replays that approval verbatim. */
let grantedResolution: JsonObject | undefined;
const approver: ApprovalRequest[] = [];
const resolver: ApprovalResolver = (request: ApprovalRequest) => {
  approver.push(request);
  const call = request.context.tool_call as { name: string; args: unknown };
  if (grantedResolution === undefined) {
    console.log(`  approver sees ${call.name} ${JSON.stringify(call.args)} identity ${short(request.context_identity)} → approve`);
    grantedResolution = { outcome: 'approve', context_identity: request.context_identity, verdict: Verdict.allow() as unknown as JsonObject };
    return grantedResolution;
  }
  console.log(`  replayed approval for ${short(grantedResolution.context_identity as string)} presented against ${call.name} ${JSON.stringify(call.args)} identity ${short(request.context_identity)}`);
  return grantedResolution;
};

/** The scripted model: each turn asks for one refund, then answers from the tool result. */
const script: LoopModelResponse[] = [
  { content: null, tool_calls: [{ id: 'call-1', name: 'issue_refund', args: { order: 'ord-1001', amount: 840 } }], finish_reason: 'tool_calls' },
  { content: 'Your $840 refund for ord-1001 has been issued.', tool_calls: [], finish_reason: 'stop' },
  { content: null, tool_calls: [{ id: 'call-2', name: 'issue_refund', args: { order: 'ord-1001', amount: 8400 } }], finish_reason: 'tool_calls' },
  { content: 'I could not issue that refund.', tool_calls: [], finish_reason: 'stop' },
];
let turn = 0;
const refundsExecuted: JsonObject[] = [];

const emitter = createEmitter({
  agent: { id: 'support-agent', framework: 'reference-host' },
  session: { id: 'refund-demo-session' },
  interceptors: [refundGuard],
  resolver,
  now: (() => {
    let t = Date.parse('2026-11-29T12:00:00.000Z');
    return () => new Date((t += 1000));
  })(),
});

const loop: AgentLoop = createAgentLoop({
  emitter,
  model: async () => script[turn++]!,
  tools: {
    names: ['issue_refund', 'lookup_account'],
    async invoke(call) {
      refundsExecuted.push(call.args as JsonObject);
      return { value: { refunded: (call.args as { amount: number }).amount, status: 'ok' }, is_error: false };
    },
  },
});

function short(identity: string | null | undefined): string {
  return identity ? `${identity.slice(0, 19)}…` : 'null';
}

function row(r: InterceptionRecord): string {
  const cells = [
    String(r.sequence).padStart(3),
    r.interception_point.padEnd(16),
    r.verdict.decision.padEnd(9),
    (r.verdict.reason ?? '').padEnd(38),
    String(r.decided_by ?? '-').padEnd(4),
    (r.resolved_by ?? '-').padEnd(9),
    short(r.input_identity),
  ];
  return cells.join(' ');
}

console.log('Refund demo — AGENT-HOOKS-0.1 reference host\n');
console.log('turn 1: "refund ord-1001" (the model asks for $840, over the $500 cap)');
console.log('turn 2: "refund it again" (the model asks for $8,400 and presents the earlier approval)\n');
const result = await loop.run([
  { content: 'Please refund order ord-1001.', role: 'user' },
  { content: 'Please refund it again.', role: 'user' },
]);

console.log('\ndecision stream (one payload-free §10.3 record per emission):');
console.log(['seq', 'point'.padEnd(16), 'decision'.padEnd(9), 'reason'.padEnd(38), 'by'.padEnd(4), 'resolved'.padEnd(9), 'input_identity'].join(' '));
for (const r of emitter.records()) console.log(row(r));

console.log(`\nrefunds executed: ${JSON.stringify(refundsExecuted)}`);
console.log(`turn outputs: ${JSON.stringify(result.outputs)}`);

// The demo checks its own claim: the $840 refund ran once, the $8,400 one never did.
const ok = refundsExecuted.length === 1 && refundsExecuted[0]!.amount === 840 &&
  emitter.records().some((r) => r.verdict.reason === 'host_error:approval_identity_mismatch' && r.interception_point === 'pre_tool_call');
console.log(ok ? '\nOK: the approval bound to the $840 call could not be replayed against the $8,400 call.' : '\nFAILED: the replay was not refused.');
process.exitCode = ok ? 0 : 1;
