// The CTK's mock model and mock tools (GRAMMAR.md §2.1). The runner asserts on these logs,
// never on what the host says it did.
import type { Json, JsonObject } from '../core/types.js';
import type { ModelStream, ModelStreamChunk, NonJsonVerdictKind, Rendezvous, Scenario, UnprojectableKind } from '../harness/contract.js';
import type { ModelRequest, ModelResponse, ToolCallRequest, ToolCallResult } from '../core/agent-io.js';
import { deepClone, deepEqual } from '../core/json.js';
import { stringifyLossless } from './json.js';

/** What the CTK observed of one streamed response: how far the host consumed it. */
export interface StreamObservation {
  /** Index of the model call the stream answered. */
  call: number;
  /** Chunks the script lists. */
  chunks: number;
  /** Chunks the host actually pulled. */
  delivered: number;
  /** The host pulled past the last chunk (and learned the stream ended). */
  drained: boolean;
}

export interface MockLog {
  model_calls: ModelRequest[];
  tool_invocations: Array<{ id: string; name: string; args: Json }>;
  /** Every streamed response (`respond.stream`), in model-call order. */
  streams: StreamObservation[];
  /** Things the host did that the script did not foresee (reported as failures or notes). */
  overruns: string[];
  /** §12.2 probe: every tool invocation that waited at its rendezvous in vain (the host ran its tool calls one by one). */
  rendezvous: string[];
  notes: string[];
  /** What the mock model answered each call (by call index), on the emission clock: the cross-check pairs them (crosscheck.ts). */
  model_answers: ModelAnswer[];
  /** What each tool invocation returned or raised, on the emission clock (crosscheck.ts). */
  tool_outcomes: ToolOutcome[];
  /** The emission clock: how many contexts the first interceptor had received when a mock was called. */
  clock?: () => number;
}

/** A scripted answer as the model gave it: for a stream, the whole response its chunks assemble to. */
export interface ModelAnswer {
  call: number;
  /** The emission clock when the call was made. */
  at: number;
  kind: 'response' | 'stream' | 'truncated_stream' | 'fault' | 'unprojectable' | 'overrun';
  response: { content: Json; tool_calls: Json; finish_reason: string };
}

export interface ToolOutcome {
  /** Index into tool_invocations. */
  invocation: number;
  id: string;
  name: string;
  /** The emission clock when the tool was called, and when it answered. */
  at: number;
  answered_at?: number;
  kind: 'returned' | 'raised' | 'unscripted' | 'unprojectable';
  result?: { value: Json; is_error: boolean };
}

export function newMockLog(): MockLog {
  return { model_calls: [], tool_invocations: [], streams: [], overruns: [], rendezvous: [], notes: [], model_answers: [], tool_outcomes: [] };
}

/**
 * Nth model call → Nth respond; beyond the script → an overrun failure and a plain stop answer. A respond with
 * `stream` is answered chunk by chunk (GRAMMAR.md §9.1) and the CTK counts what the host pulls.
 */
export function createMockModel(scenario: Scenario, log: MockLog): (request: ModelRequest) => Promise<ModelResponse | ModelStream> {
  const script = scenario.model_script ?? [];
  return async (request) => {
    const n = log.model_calls.length;
    log.model_calls.push(deepClone({ model_id: request?.model_id, messages: request?.messages }) as ModelRequest);
    const at = log.clock?.() ?? -1;
    const answer = (kind: ModelAnswer['kind'], content: Json, tool_calls: unknown, finish_reason: string) =>
      log.model_answers.push({ call: n, at, kind, response: deepClone({ content, tool_calls: tool_calls as Json, finish_reason }) });
    const entry = script[n];
    if (!entry) {
      log.overruns.push(`host made ${n + 1} model calls, the script has ${script.length}`);
      answer('overrun', null, [], 'stop');
      return { content: null, tool_calls: [], finish_reason: 'stop' };
    }
    const r = deepClone(entry.respond) as JsonObject;
    const toolCalls = (Array.isArray(r.tool_calls) ? r.tool_calls : []) as unknown as ModelResponse['tool_calls'];
    const finish = typeof r.finish_reason === 'string' ? r.finish_reason : 'stop';
    const faulty = r.fault === 'raise';
    if (Array.isArray(r.stream)) {
      const texts = r.stream as string[];
      // mock_faults: the stream delivers `fault_after` chunks (default all), then its next pull fails natively.
      const failAt = faulty ? (typeof r.fault_after === 'number' ? r.fault_after : texts.length) : undefined;
      answer(faulty ? 'fault' : r.stream_truncated === true ? 'truncated_stream' : 'stream', texts.join(''), toolCalls, finish);
      return mockStream(texts, r.stream_truncated === true, toolCalls, finish, n, log, failAt);
    }
    // mock_faults: the call itself fails natively, as a provider error does (§12.1: an errored model call).
    const content = (r.content ?? null) as Json;
    answer(faulty ? 'fault' : typeof r.unprojectable === 'string' ? 'unprojectable' : 'response', content, toolCalls, finish);
    if (faulty) throw new MockFault('model');
    return {
      content: typeof r.unprojectable === 'string' ? unprojectable(content, r.unprojectable as UnprojectableKind) : content,
      tool_calls: toolCalls,
      finish_reason: finish,
    };
  };
}

/**
 * The chunks in order; a complete stream's last chunk carries finish_reason and tool_calls; a truncated one's last
 * chunk is partial and the stream then ends without a finish_reason (GRAMMAR.md §9.1).
 */
function mockStream(texts: string[], truncated: boolean, toolCalls: ModelResponse['tool_calls'], finish: string, call: number, log: MockLog, failAt?: number): ModelStream {
  const seen: StreamObservation = { call, chunks: texts.length, delivered: 0, drained: false };
  log.streams.push(seen);
  const chunkAt = (i: number): ModelStreamChunk => {
    // A stream that fails carries neither a boundary-less last chunk nor a finish_reason: every delivered chunk is whole.
    if (failAt !== undefined) return { content: texts[i]! };
    const last = i === texts.length - 1;
    if (!last) return { content: texts[i]! };
    if (truncated) return { content: texts[i]!, partial: true };
    return { content: texts[i]!, finish_reason: finish, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) };
  };
  return {
    [Symbol.asyncIterator]() {
      let i = 0;
      return {
        async next(): Promise<IteratorResult<ModelStreamChunk>> {
          if (failAt !== undefined && i >= failAt) {
            i = texts.length; // the provider is gone: nothing more, not even the end
            throw new MockFault('model stream');
          }
          if (i >= texts.length) {
            seen.drained = true;
            return { done: true, value: undefined };
          }
          seen.delivered++;
          return { done: false, value: chunkAt(i++) };
        },
        async return(): Promise<IteratorResult<ModelStreamChunk>> {
          i = texts.length; // a closed stream delivers nothing more
          return { done: true, value: undefined };
        },
      };
    },
  };
}

/**
 * CTK extension (projection_faults): `value` (an object) with one member JSON cannot carry — a cycle, a BigInt,
 * a function, or a getter that throws. Only an in-process host can be handed this (§10.3 host projection failure).
 */
export function unprojectable(value: Json, kind: UnprojectableKind): Json {
  const out = { ...(value as JsonObject) } as Record<string, unknown>;
  switch (kind) {
    case 'cycle':
    case 'bigint':
    case 'function':
      out.ctk_unprojectable = nonJsonValue(kind, out);
      break;
    case 'throwing_getter': {
      // The exception text quotes the value, as many a framework's does: a host that records it leaks target
      // content (§6.3: an exception type name is acceptable, an exception string is not).
      const text = `ctk: scripted getter fault reading ${stringifyLossless(value)}`;
      Object.defineProperty(out, 'ctk_unprojectable', {
        enumerable: true,
        get() {
          throw new TypeError(text);
        },
      });
      break;
    }
  }
  return out as unknown as Json;
}

/** A value JSON cannot carry, of `kind`; `self` is what a `cycle` refers back to. One home for every such value. */
function nonJsonValue(kind: Exclude<NonJsonVerdictKind, 'hole' | 'undefined_element'>, self: object): unknown {
  switch (kind) {
    case 'cycle':
      return self;
    case 'bigint':
      return 2n ** 64n;
    case 'function':
      return () => 'ctk';
    case 'nan':
      return Number.NaN;
    case 'infinity':
      return Number.POSITIVE_INFINITY;
    case 'negative_infinity':
      return Number.NEGATIVE_INFINITY;
    case 'symbol':
      return Symbol('ctk');
    case 'class_instance':
      // An instance of a class, not a plain object: a Map, whose entries JSON cannot carry (JSON.stringify gives {}).
      return new Map([['ctk', 1]]);
  }
}

/**
 * CTK extension (non_json_verdicts, GRAMMAR.md §3): the verdict `value` (an object) with one extra member holding,
 * at index 0 of an array inside an object, a value JSON cannot carry: `{..., ctk_unprojectable: {list: [<bad>]}}`
 * (a `hole` leaves index 0 of a one-element array empty). Only an in-process host can be handed it (§11: an
 * interceptor that returned a non-JSON value is host_error:interceptor_failed).
 */
export function nonJsonVerdict(value: Json, kind: NonJsonVerdictKind): unknown {
  const out = { ...(value as JsonObject) } as Record<string, unknown>;
  let list: unknown[];
  if (kind === 'hole') list = new Array<unknown>(1);
  else if (kind === 'undefined_element') list = [undefined];
  else list = [nonJsonValue(kind, out)];
  out.ctk_unprojectable = { list };
  return out;
}

/**
 * CTK extension (mock_faults, GRAMMAR.md §2): the native error a faulting mock raises. Its message names the mock
 * only, never scripted content, so a host that records it leaks nothing of the target (§6.3).
 */
export class MockFault extends Error {
  constructor(what: string) {
    super(`ctk: scripted ${what} failure`);
    this.name = 'MockFault';
  }
}

/** The bounded wait of a `rendezvous` clause when the vector sets none (GRAMMAR.md §2). */
export const RENDEZVOUS_WITHIN_MS = 2000;

/**
 * §12.2 probe (GRAMMAR.md §2, `rendezvous`): invocations of one group wait for each other; once `parties` are in
 * flight together they all return. One that waits `within_ms` in vain returns anyway and logs why: a host declaring
 * parallel_tool_calls that runs the calls one after another can never gather them.
 */
function createRendezvous(log: MockLog): (r: Rendezvous, call: { id: string; name: string }) => Promise<void> {
  const groups = new Map<string, Array<() => void>>();
  return (r, call) =>
    new Promise<void>((resolve) => {
      const waiting = groups.get(r.group) ?? [];
      groups.set(r.group, waiting);
      const within = r.within_ms ?? RENDEZVOUS_WITHIN_MS;
      let timer: NodeJS.Timeout | undefined;
      const release = () => {
        clearTimeout(timer);
        resolve();
      };
      waiting.push(release);
      if (waiting.length >= r.parties) {
        groups.delete(r.group); // the next batch of this group gathers afresh
        for (const go of waiting) go();
        return;
      }
      timer = setTimeout(() => {
        const present = waiting.length;
        waiting.splice(waiting.indexOf(release), 1);
        log.rendezvous.push(
          `tool "${call.name}" (call ${call.id}) waited ${within} ms at rendezvous "${r.group}" for ${r.parties} invocations in flight together, but only ${present} ${present === 1 ? 'was' : 'were'}: the host declares parallel_tool_calls yet ran these tool calls one after another`,
        );
        resolve();
      }, within);
    });
}

/** Tools per `behavior`: first clause whose when_args deep-equals the args, or without when_args. */
export function createMockTools(scenario: Scenario, log: MockLog): (call: ToolCallRequest) => Promise<ToolCallResult> {
  const tools = scenario.tools ?? [];
  const meet = createRendezvous(log);
  return async (call) => {
    const invocation = log.tool_invocations.length;
    log.tool_invocations.push(deepClone({ id: call?.id, name: call?.name, args: call?.args }) as { id: string; name: string; args: Json });
    const outcome: ToolOutcome = { invocation, id: String(call?.id), name: String(call?.name), at: log.clock?.() ?? -1, kind: 'unscripted' };
    log.tool_outcomes.push(outcome);
    const answer = (kind: ToolOutcome['kind'], result?: { value: Json; is_error: boolean }) => {
      outcome.kind = kind;
      outcome.answered_at = log.clock?.() ?? -1;
      if (result) outcome.result = deepClone(result);
    };
    const tool = tools.find((t) => t.name === call?.name);
    if (!tool) {
      log.notes.push(`host invoked unknown tool "${String(call?.name)}"`);
      answer('unscripted');
      return { value: 'ctk: no scripted behaviour', is_error: true };
    }
    const clause = tool.behavior.find((b) => b.when_args === undefined || deepEqual(b.when_args, call.args));
    if (!clause) {
      log.notes.push(`tool "${tool.name}" has no behaviour clause for args ${JSON.stringify(call.args)}`);
      answer('unscripted');
      return { value: 'ctk: no scripted behaviour', is_error: true };
    }
    if (clause.rendezvous) await meet(clause.rendezvous, { id: String(call.id), name: tool.name });
    // mock_faults: the tool throws instead of returning (§4.2: the host surfaces it as a tool error).
    if (clause.fault === 'raise') {
      answer('raised');
      throw new MockFault('tool');
    }
    const value = deepClone(clause.return);
    const isError = clause.is_error === true;
    answer(clause.unprojectable ? 'unprojectable' : 'returned', { value, is_error: isError });
    return { value: clause.unprojectable ? unprojectable(value, clause.unprojectable) : value, is_error: isError };
  };
}
