// `npm run bench` rows for the Google ADK integration: one session (a tool call, then the answer) through the real
// Runner.runAsync → LlmAgent loop, without the integration's plugin and with it (one allow interceptor).
// bench/frameworks.ts times both.
import { BaseLlm, BasePlugin, BaseTool, InMemorySessionService, LlmAgent, Runner, setLogger, type LlmResponse } from '@google/adk';
import { frameworkBenchRuns, type Emitter, type FrameworkBenchRuns } from 'agent-hooks-ctk/host';
import { agentHooks, SILENT_LOGGER } from './src/index.js';

class BenchLlm extends BaseLlm {
  private call = 0;
  constructor(private readonly payload: string) {
    super({ model: 'bench' });
  }
  async *generateContentAsync(): AsyncGenerator<LlmResponse, void> {
    const first = this.call++ % 2 === 0;
    yield first
      ? { content: { role: 'model', parts: [{ functionCall: { id: `tc-${this.call}`, name: 'lookup', args: { q: this.payload.slice(0, 64) } } }] } }
      : { content: { role: 'model', parts: [{ text: this.payload }] } };
  }
  async connect(): Promise<never> {
    throw new Error('not used');
  }
}

class Lookup extends BaseTool {
  constructor(private readonly payload: string) {
    super({ name: 'lookup', description: 'lookup' });
  }
  override _getDeclaration() {
    return { name: 'lookup', description: 'lookup', parametersJsonSchema: { type: 'object' } };
  }
  async runAsync(): Promise<unknown> {
    return this.payload;
  }
}

/** A plugin on the same callbacks that does nothing: ADK's own cost of the extension points. */
class NoopPlugin extends BasePlugin {
  constructor() {
    super('noop');
  }
  override async onUserMessageCallback() {
    return undefined;
  }
  override async beforeModelCallback() {
    return undefined;
  }
  override async afterModelCallback() {
    return undefined;
  }
  override async beforeToolCallback() {
    return undefined;
  }
  override async onEventCallback() {
    return undefined;
  }
  override async afterRunCallback() {}
}

/**
 * The four runs of frameworkBenchRuns: plain (no plugin), noop (a plugin on the same callbacks that does nothing: ADK's
 * own cost of the extension points), hooked and bare (the integration's plugin, with one allow interceptor and over
 * `passThrough`). Each run has a runner over a fresh in-memory session service, so sessions do not pile up.
 */
export function googleAdkBenchRuns(payload: string, passThrough?: () => Emitter): FrameworkBenchRuns {
  setLogger(SILENT_LOGGER);
  const tools = [new Lookup(payload)];
  const newMessage = { role: 'user', parts: [{ text: payload }] };
  const runnerWith = async (plugins: BasePlugin[]) => {
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'bench', agent: new LlmAgent({ name: 'bench', model: new BenchLlm(payload), tools, disallowTransferToParent: true, disallowTransferToPeers: true }), sessionService, plugins });
    return { runner, sessionId: (await sessionService.createSession({ appName: 'bench', userId: 'u' })).id };
  };
  /** One runAsync without the integration; it must end on the payload. */
  async function direct(plugins: BasePlugin[], what: string): Promise<void> {
    const { runner, sessionId } = await runnerWith(plugins);
    let last: unknown;
    for await (const e of runner.runAsync({ userId: 'u', sessionId, newMessage })) last = e.content?.parts?.[0]?.text;
    if (last !== payload) throw new Error(`bench: ${what} ADK run did not answer`);
  }
  return frameworkBenchRuns({
    agentHooks,
    tools,
    passThrough,
    async turn(session) {
      const { runner, sessionId } = await runnerWith([session.plugin]);
      if ((await session.run(runner, { userId: 'u', sessionId, newMessage })).text !== payload) throw new Error('bench: hooked ADK run did not answer');
    },
    plain: () => direct([], 'plain'),
    noop: () => direct([new NoopPlugin()], 'no-op'),
  });
}
