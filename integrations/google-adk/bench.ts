// `npm run bench` rows for the Google ADK integration: one session (a tool call, then the answer) through the real
// Runner.runAsync → LlmAgent loop, without the integration's plugin and with it (one allow interceptor).
// bench/frameworks.ts times both.
import { BaseLlm, BasePlugin, BaseTool, InMemorySessionService, LlmAgent, Runner, setLogger, type LlmResponse } from '@google/adk';
import type { Emitter } from 'agent-hooks-ctk/host';
import { agentHooks, SILENT_LOGGER, type AdkHookSession } from './src/index.js';

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
 * Four runs of the same world: plain (no plugin), noop (a plugin on the same callbacks that does nothing), hooked
 * (the integration; resolves to its number of emissions) and bare (the integration over `passThrough`, an emitter
 * that does nothing: the integration's own work without the emitter's).
 */
export function googleAdkBenchRuns(payload: string, passThrough?: () => Emitter): { plain(): Promise<void>; noop(): Promise<void>; hooked(): Promise<number>; bare(): Promise<void>; contextBytes(): Promise<number> } {
  setLogger(SILENT_LOGGER);
  const tools = [new Lookup(payload)];
  const newMessage = { role: 'user', parts: [{ text: payload }] };
  /** A runner over a fresh in-memory session service (so sessions do not pile up over the rounds) and its session. */
  const runnerWith = async (plugins: BasePlugin[]) => {
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'bench', agent: new LlmAgent({ name: 'bench', model: new BenchLlm(payload), tools, disallowTransferToParent: true, disallowTransferToPeers: true }), sessionService, plugins });
    return { runner, sessionId: (await sessionService.createSession({ appName: 'bench', userId: 'u' })).id };
  };
  /** One runAsync without the integration: the answer it ended on. */
  async function direct(plugins: BasePlugin[]): Promise<unknown> {
    const { runner, sessionId } = await runnerWith(plugins);
    let last: unknown;
    for await (const e of runner.runAsync({ userId: 'u', sessionId, newMessage })) last = e.content?.parts?.[0]?.text;
    return last;
  }
  async function through(session: AdkHookSession): Promise<void> {
    const { runner, sessionId } = await runnerWith([session.plugin]);
    const turn = await session.run(runner, { userId: 'u', sessionId, newMessage });
    await session.close();
    if (turn.text !== payload) throw new Error('bench: hooked ADK run did not answer');
  }
  const hooks = agentHooks({ agent: { id: 'bench-agent' }, interceptors: [{ name: 'allow-all', intercept: () => ({ decision: 'allow' }) }] });
  return {
    /** The mean serialized context size the interceptor of one hooked run receives. */
    async contextBytes() {
      const sizes: number[] = [];
      const measuring = agentHooks({ agent: { id: 'bench-agent' }, interceptors: [{ name: 'allow-all', intercept: (ctx) => (sizes.push(Buffer.byteLength(JSON.stringify(ctx))), { decision: 'allow' }) }] });
      await through(await measuring.startSession({ tools, sessionId: 'bench-session' }));
      return sizes.reduce((a, b) => a + b, 0) / sizes.length;
    },
    async plain() {
      if ((await direct([])) !== payload) throw new Error('bench: plain ADK run did not answer');
    },
    async noop() {
      if ((await direct([new NoopPlugin()])) !== payload) throw new Error('bench: no-op ADK run did not answer');
    },
    async bare() {
      if (!passThrough) throw new Error('bench: bare() needs a pass-through emitter');
      await through(await agentHooks({ agent: { id: 'bench-agent' }, emitter: passThrough() }).startSession({ tools, sessionId: 'bench-session' }));
    },
    async hooked() {
      const session = await hooks.startSession({ tools, sessionId: 'bench-session' });
      await through(session);
      return session.hooks.emitter.records().length;
    },
  };
}
