// The refund scenario through ADK's real Runner.runAsync → LlmAgent loop, for the suites (integrations/scenarios.test.ts
// runs it for every integration alike; src/index.test.ts for what is ADK's own): a scripted BaseLlm first asks for
// refund(840), then answers with the last message's content; the interceptor and options are the test's.
import { BaseLlm, BaseTool, InMemorySessionService, LlmAgent, Runner, setLogger, type LlmRequest, type LlmResponse, type RunAsyncToolRequest } from '@google/adk';
import type { InterceptionRecord, Json } from 'agent-hooks-ctk/core';
import { findBlocked, type Interceptor } from 'agent-hooks-ctk/host';
import { agentHooks, requestToSpec, SILENT_LOGGER, type AdkTurn, type AgentHooksOptions } from './src/index.js';

class ScriptedLlm extends BaseLlm {
  constructor(readonly seen: LlmRequest[]) {
    super({ model: 'scripted' });
  }
  async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    this.seen.push(request);
    yield this.seen.length === 1
      ? { content: { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'refund', args: { amount: 840 } } }] } }
      : { content: { role: 'model', parts: [{ text: `done: ${JSON.stringify(requestToSpec(request).at(-1)?.content)}` }] } };
  }
  async connect(): Promise<never> {
    throw new Error('not used');
  }
}

class Refund extends BaseTool {
  constructor(private readonly refunds: unknown[]) {
    super({ name: 'refund', description: 'refund an order' });
  }
  override _getDeclaration() {
    return { name: 'refund', description: 'refund an order', parametersJsonSchema: { type: 'object' } };
  }
  async runAsync({ args }: RunAsyncToolRequest): Promise<unknown> {
    this.refunds.push(args);
    return `refunded ${(args as { amount: number }).amount}`;
  }
}

/** One session, one runAsync. */
export async function refundScenario(intercept: Interceptor['intercept'], extra: Partial<AgentHooksOptions> = {}) {
  setLogger(SILENT_LOGGER);
  const seen: LlmRequest[] = [];
  const refunds: unknown[] = [];
  const records: InterceptionRecord[] = [];
  const tools = [new Refund(refunds)];
  const session = await agentHooks({ agent: { id: 'support' }, interceptors: [{ name: 'guard', intercept }], onRecord: (r) => records.push(r), ...extra }).startSession({ tools });
  const agent = new LlmAgent({ name: 'support', model: new ScriptedLlm(seen), tools, disallowTransferToParent: true, disallowTransferToPeers: true });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'support', agent, sessionService, plugins: [session.plugin] });
  const adk = await sessionService.createSession({ appName: 'support', userId: 'u' });
  let result: AdkTurn | unknown;
  let error: unknown;
  try {
    result = await session.run(runner, { userId: 'u', sessionId: adk.id, newMessage: { role: 'user', parts: [{ text: 'refund my order' }] } });
  } catch (e) {
    result = error = findBlocked(e) ?? e;
  }
  await session.close();
  return { result, answer: error === undefined ? (result as AdkTurn).text : (undefined as Json | undefined), error, seen, modelCalls: seen.length, refunds, records };
}
