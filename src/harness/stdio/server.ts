// The host side of the stdio harness protocol: exposes ANY in-process Harness over stdin/stdout.
// CTK requests (describe/setup/run/teardown) become native calls; the RunSetup the harness sees
// has proxy interceptors, resolver, model and tools that ask the CTK over the same connection,
// and the harness carries out the returned actions natively (raise, mutate, hang).
import type { Readable, Writable } from 'node:stream';
import type {
  Harness,
  InterceptorAction,
  ModelStream,
  ModelStreamChunk,
  ResolverAction,
  RunSetup,
  ScriptedInterceptor,
} from '../contract.js';
import type { ModelResponse, ToolCallResult } from '../../core/agent-io.js';
import type { ApprovalRequest, Composition, JsonObject, Mode } from '../../core/types.js';
import { isPlainObject } from '../../core/json.js';
import { HARNESS_PROTOCOL, IN_PROCESS_ONLY_CAPABILITIES } from '../contract.js';
import { RPC_ERROR, RpcFault } from './protocol.js';
import { RpcPeer } from './rpc-peer.js';

export interface ServeOptions {
  /** Where protocol problems caused by the CTK side are logged (default: process.stderr). */
  log?: (line: string) => void;
}

/** Serves `harness` until `input` ends; resolves after the harness is closed. */
export function serveHarnessOverStdio(harness: Harness, input: Readable, output: Writable, options: ServeOptions = {}): Promise<void> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let peer: RpcPeer;

  const handle = async (method: string, params: unknown): Promise<unknown> => {
    switch (method) {
      case 'describe': {
        const surface = await native('describe', () => harness.describe());
        // projection_faults and non_json_verdicts need values JSON cannot carry: they cannot cross this protocol.
        const capabilities = Array.isArray(surface.capabilities)
          ? surface.capabilities.filter((c) => !(IN_PROCESS_ONLY_CAPABILITIES as readonly string[]).includes(c))
          : surface.capabilities;
        return { ...surface, capabilities, protocol: HARNESS_PROTOCOL };
      }
      case 'setup':
        await native('setup', () => harness.setup(runSetupFrom(params, peer)));
        return null;
      case 'run':
        return native('run', () => harness.run());
      case 'teardown':
        await native('teardown', () => harness.teardown());
        return null;
      default:
        throw new RpcFault(RPC_ERROR.methodNotFound, `method not found: ${method}`);
    }
  };

  peer = new RpcPeer({
    write: (line) => {
      output.write(line + '\n');
    },
    handleRequest: handle,
    onViolation: (problem) => log(`[stdio host] protocol violation by the CTK side: ${problem}`),
  });

  return new Promise((resolve) => {
    input.on('data', (chunk: Buffer | string) => peer.feed(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
    input.on('end', () => {
      peer.end();
      peer.rejectAll((m) => new Error(`the CTK closed the connection while "${m}" was pending`));
      Promise.resolve(harness.close?.())
        .catch((error: unknown) => log(`[stdio host] close failed: ${String(error)}`))
        .finally(() => resolve());
    });
  });
}

async function native<T>(method: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof RpcFault) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new RpcFault(RPC_ERROR.hostFailed, `${method} failed in the host: ${message}`);
  }
}

function invalid(problem: string): never {
  throw new RpcFault(RPC_ERROR.invalidParams, `invalid setup params: ${problem}`);
}

/** A streamed model answer: each chunk is pulled from the CTK with model_chunk; null ends the stream. */
function pulledStream(peer: RpcPeer, id: string): ModelStream {
  return {
    [Symbol.asyncIterator]() {
      let ended = false;
      return {
        async next(): Promise<IteratorResult<ModelStreamChunk>> {
          if (ended) return { done: true, value: undefined };
          const chunk = (await peer.request('model_chunk', { stream: id })) as ModelStreamChunk | null;
          if (chunk === null) {
            ended = true;
            return { done: true, value: undefined };
          }
          return { done: false, value: chunk };
        },
        async return(): Promise<IteratorResult<ModelStreamChunk>> {
          ended = true; // the host stopped reading: nothing more is pulled
          return { done: true, value: undefined };
        },
      };
    },
  };
}

/** Rebuilds the in-process RunSetup from `setup` params, with every callback proxied to the CTK. */
function runSetupFrom(params: unknown, peer: RpcPeer): RunSetup {
  if (!isPlainObject(params)) invalid('params must be an object');
  const p = params;
  if (typeof p.vector_id !== 'string') invalid('vector_id must be a string');
  if (!isPlainObject(p.scenario)) invalid('scenario must be an object');
  if (p.mode !== 'enforce' && p.mode !== 'evaluate_only') invalid('mode must be "enforce" or "evaluate_only"');
  if (!isPlainObject(p.composition) || typeof p.composition.profile !== 'string') invalid('composition must be {profile, …knobs}');
  if (p.identity_provider !== null && typeof p.identity_provider !== 'string') invalid('identity_provider must be a string or null');
  if (!Array.isArray(p.interceptors)) invalid('interceptors must be an array of {index, name}');
  const interceptors: ScriptedInterceptor[] = p.interceptors.map((entry, i) => {
    if (!isPlainObject(entry) || typeof entry.index !== 'number' || typeof entry.name !== 'string') invalid(`interceptors[${i}] must be {index: integer, name: string}`);
    const index = entry.index;
    return {
      index,
      name: entry.name,
      decide: (context: JsonObject) => peer.request('intercept', { index, context }) as Promise<InterceptorAction>,
    };
  });
  if (typeof p.resolver !== 'boolean') invalid('resolver must be a boolean');
  const redact = p.redact_for_approval;
  if (redact !== null && !(Array.isArray(redact) && redact.every((x) => typeof x === 'string'))) invalid('redact_for_approval must be an array of paths or null');
  for (const key of ['interceptor_timeout_ms', 'resolver_timeout_ms'] as const) {
    if (p[key] !== undefined && typeof p[key] !== 'number') invalid(`${key} must be a number`);
  }
  return {
    vector_id: p.vector_id,
    scenario: p.scenario as RunSetup['scenario'],
    mode: p.mode as Mode,
    composition: p.composition as unknown as Composition,
    identity_provider: p.identity_provider as string | null,
    interceptors,
    resolver: p.resolver ? { decide: (request: ApprovalRequest) => peer.request('resolve', { request }) as Promise<ResolverAction> } : null,
    redact_for_approval: redact as string[] | null,
    interceptor_timeout_ms: p.interceptor_timeout_ms as number | undefined,
    resolver_timeout_ms: p.resolver_timeout_ms as number | undefined,
    model: async (request) => {
      const answer = (await peer.request('model', request)) as ModelResponse | { stream: string };
      return isPlainObject(answer) && typeof answer.stream === 'string' ? pulledStream(peer, answer.stream) : (answer as ModelResponse);
    },
    tools: (call) => peer.request('tool', call) as Promise<ToolCallResult>,
  };
}
