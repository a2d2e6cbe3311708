// The selftest's broken hosts: each mutant is the reference host with exactly one obligation-bearing step
// (a HostParts entry, src/host/parts.ts) replaced by a version that violates exactly one MUST of the spec.
// A few obligations live outside the parts table (the loop's unconditional shutdown, knob defaults); those
// mutants wrap the reference harness so that the HOST misbehaves — never the CTK.
import { EVIDENCE_MAX_BYTES, HOST_ERROR, TARGET_FIELD, canonicalize, deepEqual, getDotted, isLosslessNumberLike, isPlainObject, parseDottedPath, setPath, type InterceptionPoint, type InterceptionRecord, type Json, type JsonObject, type Verdict } from '../../core/index.js';
import { DEFAULT_PARTS, type HostParts, type HostPartsOverride } from '../../host/parts.js';
import { mergeLabels } from '../../host/labels.js';
import { LosslessNumber } from 'lossless-json';
import type { ComposeEnv, ComposeResult } from '../../host/profiles.js';
import type { Slot } from '../../host/dispatch.js';
import { createReferenceHarness } from '../../harness/reference-harness.js';
import { createCtkSessionHost } from '../../harness/ctk-session-host.js';
import type { HookSession } from '../../host/session.js';
import type { Postures } from '../../core/postures.js';
import { isModelStream, type Harness, type ModelStream, type RunReport, type RunSetup, type ScriptedInterceptor } from '../../harness/contract.js';
import type { ModelRequest, ModelResponse, ToolCallRequest, ToolCallResult } from '../../core/agent-io.js';
import type { StreamMediation } from '../../host/loop.js';
import type { StreamChunk } from '../../host/stream.js';
import type { ConversationLayout } from '../../host/loop.js';

export interface Mutant {
  /** kebab-case, unique. */
  id: string;
  /** What the broken host does, in one line. */
  description: string;
  /** The clause whose MUST it violates. */
  clause: string;
  /** A fresh broken host. */
  harness(): Harness;
  /** The reference host configuration the mutant breaks (default buffered); it is scored against that configuration's surface. */
  streaming?: StreamMediation;
  /**
   * The conversation layout the broken host runs under (default the reference loop's): a defect only a layout that
   * carries history can show is scored against the correct reference host laid out the same way.
   */
  layout?: Partial<ConversationLayout>;
  /** A mutant of the CTK's session host (a host built on the hook session, holding text at input) in place of the reference host. */
  session?: true;
}

/** A mutant's reference configuration: its stream mediation, and its conversation layout when it names one; `session` for a mutant of the CTK's session host. */
export function configurationKey(m: Pick<Mutant, 'streaming' | 'layout' | 'session'>): string {
  if (m.session) return 'session';
  const streaming = m.streaming ?? 'buffered';
  const layout = m.layout && Object.keys(m.layout).length > 0 ? Object.entries(m.layout).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',') : '';
  return layout === '' ? streaming : `${streaming} layout ${layout}`;
}

/** The correct CTK session host the session mutants break: its input seam holds text only (text_only_input). */
export const correctSessionHost = (): Harness => createCtkSessionHost({ textOnlyInput: true });

/** A session-host mutant: the framework's loop calls `wire(hooks)` in place of the hook session. */
function sessionWired(id: string, clause: string, description: string, wire: (hooks: HookSession) => HookSession): Mutant {
  return { id, clause, description, session: true, harness: () => createCtkSessionHost({ textOnlyInput: true, wire }) };
}

const D: HostParts = DEFAULT_PARTS;

function parts(id: string, clause: string, description: string, override: HostPartsOverride, streaming?: StreamMediation): Mutant {
  return { id, clause, description, harness: () => createReferenceHarness({ parts: override, ...(streaming ? { streaming } : {}) }), ...(streaming ? { streaming } : {}) };
}

/** A mutant that behaves under other postures than the ones it declares (describe() keeps the correct host's). */
function undeclaredPosture(id: string, clause: string, description: string, postures: Partial<Postures>): Mutant {
  return {
    id,
    clause,
    description,
    harness: () => {
      const inner = createReferenceHarness({ postures });
      const declared = createReferenceHarness();
      return { ...inner, describe: () => declared.describe() };
    },
  };
}

/** A mutant of the incremental-mediation configuration (§12.1 exception). */
const incremental = (id: string, clause: string, description: string, override: HostPartsOverride): Mutant => parts(id, clause, description, override, 'incremental');

/** §12.1 mutant: the buffered host emits post_model_call over the first chunk only (it stops assembling early). */
function firstChunkOnly(): HostPartsOverride {
  return {
    assembleStream: async (stream) => {
      const chunks: StreamChunk[] = [];
      const tapped: AsyncIterable<StreamChunk> = {
        async *[Symbol.asyncIterator]() {
          for await (const c of stream) {
            chunks.push(c);
            yield c;
          }
        },
      };
      const a = await D.assembleStream(tapped);
      const first = chunks[0]?.content;
      return a.outcome === 'complete' && typeof first === 'string' ? { ...a, response: { ...a.response, content: first } } : a;
    },
  };
}

/** A mutant that alters the run setup the host is configured with (host configuration defaults, its model adapter). */
function configured(id: string, clause: string, description: string, alter: (s: RunSetup) => RunSetup, streaming?: StreamMediation): Mutant {
  return {
    id,
    clause,
    description,
    harness: () => {
      const inner = createReferenceHarness(streaming ? { streaming } : {});
      return { ...inner, setup: (s: RunSetup) => inner.setup(alter(s)) };
    },
    ...(streaming ? { streaming } : {}),
  };
}

/** §12.1 rule 2 mutant: the host's stream adapter prefetches one chunk ahead, so a deny leaves a chunk consumed past it. */
function readAhead(stream: ModelStream): ModelStream {
  return {
    async *[Symbol.asyncIterator]() {
      const it = stream[Symbol.asyncIterator]();
      let next = await it.next();
      while (!next.done) {
        const ahead = it.next(); // pulled before the current chunk is even evaluated
        yield next.value;
        next = await ahead;
      }
    },
  };
}

const compose = (
  f: (env: ComposeEnv, next: (env: ComposeEnv) => Promise<ComposeResult>) => Promise<ComposeResult>,
): HostPartsOverride => ({
  composeSequential: (env) => f(env, D.composeSequential),
  composeParallel: (env) => f(env, D.composeParallel),
});

const recordEdit = (edit: (r: InterceptionRecord) => InterceptionRecord): HostPartsOverride => ({
  buildRecord: (input, project) => edit(D.buildRecord(input, project)),
});

/** The report of a host that never emitted `point`: its records and identity pairs left out. */
function withoutRecordsAt(report: RunReport, point: InterceptionPoint): RunReport {
  const keep = report.records.map((r) => (r as JsonObject).interception_point !== point);
  return { ...report, records: report.records.filter((_, i) => keep[i]) as RunReport['records'], identities: report.identities.filter((_, i) => keep[i]) };
}

/** §6.1a mutant: after a denied agent_startup the host never emits agent_shutdown. */
function noShutdownAfterStartupDeny(): Mutant {
  return {
    id: 'no-shutdown-after-startup-deny',
    clause: '6.1a',
    description: 'after a denied agent_startup the session ends without emitting agent_shutdown',
    harness: () => {
      let startupDenied = false;
      const inner = createReferenceHarness({
        parts: {
          sessionMayProceed: (startup) => {
            startupDenied = !startup.proceed;
            return D.sessionMayProceed(startup);
          },
        },
      });
      const silenceShutdown = (s: ScriptedInterceptor): ScriptedInterceptor => ({
        index: s.index,
        name: s.name,
        decide: (ctx: JsonObject) =>
          ctx.interception_point === 'agent_shutdown' && startupDenied ? Promise.resolve({ kind: 'return', value: { decision: 'allow' } }) : s.decide(ctx),
      });
      return {
        ...inner,
        setup: (s: RunSetup) => {
          startupDenied = false;
          return inner.setup({ ...s, interceptors: s.interceptors.map(silenceShutdown) });
        },
        run: async (): Promise<RunReport> => {
          const report = await inner.run();
          return startupDenied ? withoutRecordsAt(report, 'agent_shutdown') : report;
        },
      };
    },
  };
}

/**
 * §6.3 mutant: the host's own core raises host_error:context_invalid out of the run where it must record the deny
 * (as a core does that throws on a context it cannot construct); the CTK reports it as host.fail_closed (fail-closed.ts).
 */
function contextInvalidRaised(): Mutant {
  return {
    id: 'context-invalid-raised',
    clause: '6.3',
    description: 'a context the host cannot construct raises host_error:context_invalid out of the run instead of recording the deny',
    harness: () => {
      const inner = createReferenceHarness();
      return {
        ...inner,
        run: async (): Promise<RunReport> => {
          const report = await inner.run();
          const failed = report.records.some((r) => (r as JsonObject).decided_by === null && ((r as JsonObject).verdict as JsonObject | undefined)?.reason === HOST_ERROR.context_invalid);
          if (failed) throw new Error(`CoreError: ${HOST_ERROR.context_invalid}`);
          return report;
        },
      };
    },
  };
}

/** §12.2 mutant: the sequence counter is bumped after the current tick, so concurrent emissions share numbers. */
function lazySequence(counter: { next: number }): number {
  const s = counter.next;
  queueMicrotask(() => {
    counter.next = Math.max(counter.next, s + 1);
  });
  return s;
}

/** §7.5 mutant: "parallel" interceptors are run one after another on a context that folds each transform. */
function parallelWithoutSnapshot(env: ComposeEnv): Promise<ComposeResult> {
  let ctx = env.context;
  let chain: Promise<unknown> = Promise.resolve();
  const invoke = (index: number): Promise<Slot> => {
    const p = chain.then(async () => {
      const slot = await env.invoke(index, ctx);
      if (slot.verdict.decision === 'transform') {
        const r = env.applyTransform(ctx, slot.verdict.transform!);
        if (r.ok) ctx = r.context;
      }
      return slot;
    });
    chain = p;
    return p;
  };
  return D.composeParallel({ ...env, invoke: (i) => invoke(i) });
}

/** §7.5 mutant: with several transforms the host applies the last one instead of reporting a conflict. */
async function conflictIgnored(env: ComposeEnv): Promise<ComposeResult> {
  const r = await D.composeParallel(env);
  if (r.winner.reason !== HOST_ERROR.transform_conflict) return r;
  const last = [...r.slots].reverse().find((s) => s.verdict.decision === 'transform');
  if (!last) return r;
  const applied = env.applyTransform(env.context, last.verdict.transform!);
  if (!applied.ok) return r;
  const { resolvedBy: _dropped, ...rest } = r;
  return { ...rest, winner: last.verdict, decidedBy: last.index, context: env.mode === 'enforce' ? applied.context : env.context };
}

function byteCut(message: string): string {
  const bytes = Buffer.from(message, 'utf8');
  if (bytes.length <= 256) return message;
  return bytes.subarray(0, 253).toString('utf8') + '…';
}

function gateWith(f: (value: unknown) => unknown): HostPartsOverride {
  return { gateVerdict: (value) => D.gateVerdict(f(value)) };
}

/**
 * §11 mutant: a verdict is coerced to JSON before the gate, the way a lenient JSON round trip would (a non-finite
 * number, a BigInt, a function, a symbol, undefined, a hole or a cycle becomes null, a class instance {}), instead of
 * the host failing it as host_error:interceptor_failed.
 */
function coerceToJson(v: unknown, ancestors: Set<object> = new Set()): unknown {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v !== 'object' || ancestors.has(v)) return null;
  if (isLosslessNumberLike(v)) return v;
  if (!Array.isArray(v) && !isPlainObject(v)) return {};
  ancestors.add(v);
  const out = Array.isArray(v)
    ? Array.from(v, (x) => coerceToJson(x, ancestors))
    : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, coerceToJson(x, ancestors)]));
  ancestors.delete(v);
  return out;
}

const withoutMember = (value: unknown, member: string, when: (v: JsonObject) => boolean): unknown => {
  if (!isPlainObject(value) || !when(value)) return value;
  const copy: JsonObject = { ...value };
  delete copy[member];
  return copy;
};

/** §7.4 mutant: under on_approval resume only the first liftable deny reaches the resolver; later ones reuse its answer. */
function resumeReusesFirstAnswer(env: ComposeEnv): Promise<ComposeResult> {
  if (env.composition.on_approval !== 'resume' || !env.consult) return D.composeSequential(env);
  const consult = env.consult;
  let first: Awaited<ReturnType<typeof consult>> | undefined;
  return D.composeSequential({
    ...env,
    consult: async (deny, ctx) => {
      if (first?.lifted) return first;
      first = await consult(deny, ctx);
      return first;
    },
  });
}

/** §7.5 mutant: a lifted liftable deny in strictest also applies the single lower-severity transform that lost. */
async function strictestAppliesLosingTransform(env: ComposeEnv): Promise<ComposeResult> {
  const r = await D.composeParallel(env);
  if (env.composition.profile !== 'parallel/strictest' || r.resolvedBy !== 'approval' || r.winner.decision !== 'allow') return r;
  const losers = r.slots.filter((s) => s.verdict.decision === 'transform');
  if (losers.length !== 1) return r;
  const applied = env.applyTransform(r.context, losers[0]!.verdict.transform!);
  return applied.ok && env.mode === 'enforce' ? { ...r, context: applied.context } : r;
}

/** §7.4 mutant: a run_all approval transform is applied to the input context, dropping the folded transforms. */
async function runAllApprovalOnInput(env: ComposeEnv): Promise<ComposeResult> {
  const r = await D.composeSequential(env);
  if (env.composition.profile !== 'sequential/run_all' || r.resolvedBy !== 'approval' || r.winner.decision !== 'transform') return r;
  const applied = env.applyTransform(env.context, r.winner.transform!);
  return applied.ok ? { ...r, context: applied.context } : r;
}

/** §4.2 mutant: post_tool_call carries the pre-transform args (remembered per tool_call.id at pre_tool_call). */
function postToolArgsUntransformed(): HostPartsOverride {
  const asked = new Map<string, Json>();
  return {
    buildContext: (meta, fields) => {
      const call = fields.tool_call;
      if (isPlainObject(call) && typeof call.id === 'string') {
        if (meta.point === 'pre_tool_call') asked.set(call.id, call.args ?? null);
        else if (meta.point === 'post_tool_call' && asked.has(call.id)) return D.buildContext(meta, { ...fields, tool_call: { ...call, args: asked.get(call.id)! } });
      }
      return D.buildContext(meta, fields);
    },
  };
}

// --- issue 18: the blind spots of a framework host (tool values, empty answers, unprojectable failures, §6.3, §12.2) ---

/**
 * A mutant whose host is the reference host with `parts` overridden and its run setup altered (`alter`): the host's
 * own tool or model adapter misbehaving (it sits between the CTK's mocks and the loop), never the CTK.
 */
function adapted(id: string, clause: string, description: string, o: { parts?: HostPartsOverride; alter: (s: RunSetup) => RunSetup }): Mutant {
  return {
    id,
    clause,
    description,
    harness: () => {
      const inner = createReferenceHarness(o.parts ? { parts: o.parts } : {});
      return { ...inner, setup: (s: RunSetup) => inner.setup(o.alter(s)) };
    },
  };
}

/** The host's tool adapter rewrites each result before the loop sees it. */
function toolAdapter(id: string, clause: string, description: string, edit: (r: ToolCallResult) => ToolCallResult): Mutant {
  return adapted(id, clause, description, { alter: (s) => ({ ...s, tools: async (call) => edit(await s.tools(call)) }) });
}

/** The host's model adapter rewrites each whole (unstreamed) response before the loop sees it. */
const modelAdapter = (edit: (r: ModelResponse) => ModelResponse) => (s: RunSetup): RunSetup => ({
  ...s,
  model: async (request) => {
    const reply = await s.model(request);
    return isModelStream(reply) ? reply : edit(reply);
  },
});

const isAnswer = (r: ModelResponse) => (r.tool_calls ?? []).length === 0;

/** Could JSON carry `v` as it is (no cycle, BigInt, function, symbol, undefined item, throwing getter)? */
function plainJson(v: unknown, seen = new Set<object>()): boolean {
  if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) return true;
  if (typeof v !== 'object' || seen.has(v)) return false;
  if ((v as { isLosslessNumber?: boolean }).isLosslessNumber === true) return true;
  seen.add(v);
  try {
    return Array.isArray(v) ? v.every((x) => x !== undefined && plainJson(x, seen)) : Object.keys(v).every((k) => plainJson((v as Record<string, unknown>)[k], seen));
  } catch {
    return false; // a getter threw
  } finally {
    seen.delete(v);
  }
}

/** What a careless adapter makes of a value: JSON.stringify's text, or String() when that throws. */
function textOf(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Below the top level, objects and arrays become their String() text (a shallow projection). */
function shallow(v: Json): Json {
  const flat = (x: Json): Json => (x !== null && typeof x === 'object' && !(x as { isLosslessNumber?: boolean }).isLosslessNumber ? String(x) : x);
  if (Array.isArray(v)) return v.map(flat);
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, flat(x as Json)]));
  return v;
}

/** §6.3 mutant: a lone surrogate's location names the member names it sits under (the payload-free walk, undone). */
function surrogatePath(v: unknown, at: string): string | undefined {
  if (typeof v === 'string') return /[\uD800-\uDFFF]/.test(v.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, '')) ? at : undefined;
  if (Array.isArray(v)) for (const [i, x] of v.entries()) { const p = surrogatePath(x, `${at}[${i}]`); if (p) return p; }
  else if (isPlainObject(v)) for (const [k, x] of Object.entries(v)) { const p = surrogatePath(x, `${at}.${k}`); if (p) return p; }
  return undefined;
}

/** §3.1 mutant: the host returns a null answer without an output emission (it records none for it). */
function nullAnswerWithoutOutput(): Mutant {
  return {
    id: 'null-answer-skips-output',
    clause: '3.1',
    description: 'a model answer with null content and no tool calls is returned without an output emission (no output record)',
    harness: () => {
      let nullAnswer = false;
      const inner = createReferenceHarness();
      return {
        ...inner,
        setup: (s: RunSetup) => {
          nullAnswer = false;
          return inner.setup(modelAdapter((r) => {
            if (isAnswer(r) && r.content === null) nullAnswer = true;
            return r;
          })(s));
        },
        run: async (): Promise<RunReport> => {
          const report = await inner.run();
          return nullAnswer ? withoutRecordsAt(report, 'output') : report;
        },
      };
    },
  };
}

/** §6.3 mutant: an interceptor's exception text goes into the interceptor_failed record. */
function interceptorExceptionRecorded(): Mutant {
  let text = '';
  const capture = (i: ScriptedInterceptor): ScriptedInterceptor => ({
    index: i.index,
    name: i.name,
    decide: async (ctx: JsonObject) => {
      const action = await i.decide(ctx);
      if (action.kind === 'raise') text = action.message ?? '';
      return action;
    },
  });
  return adapted('interceptor-exception-text-recorded', '6.3', 'the interceptor_failed record quotes the exception the interceptor raised (its text, not only its type name)', {
    parts: { mapInterceptorFailure: (f) => (f.kind === 'raise' ? { ...D.mapInterceptorFailure(f), message: `interceptor raised ${f.errorType}: ${text}` } : D.mapInterceptorFailure(f)) },
    alter: (s) => ({ ...s, interceptors: s.interceptors.map(capture) }),
  });
}

/** §6.3 mutant: a host projection failure's record quotes the exception the projection hit. */
function projectionExceptionRecorded(): Mutant {
  let text = '';
  return adapted('projection-failure-records-exception-text', '6.3', 'a host projection failure records the text of the exception the projection hit (a getter fault quoting the value)', {
    parts: { hostFailureVerdict: (message) => D.hostFailureVerdict(text ? `${message}: ${text}` : message) },
    alter: (s) => ({
      ...s,
      tools: async (call) => {
        const r = await s.tools(call);
        try {
          JSON.stringify(r.value);
        } catch (e) {
          text = (e as Error).message;
        }
        return r;
      },
    }),
  });
}

const ISSUE_18: readonly Mutant[] = [
  // Tool values of every JSON type (§4.2 post_tool_call target, §4.2 message content).
  parts('tool-value-unwrapped', '4.2', 'a tool value that is neither a string nor an object enters the messages as it is, so the next pre_model_call context is invalid', {
    incorporateToolResult: (post) => (post.proceed ? post.target : D.blockedToolMessage(post.verdict)),
  }),
  toolAdapter('tool-value-json-text', '4.2', 'the host hands post_tool_call the JSON text of a tool value that is not a string, instead of the value', (r) => (typeof r.value === 'string' || r.is_error ? r : { ...r, value: textOf(r.value) })),
  toolAdapter('tool-falsy-value-nulled', '4.2', 'a falsy tool value (0, "", false) is read as null (value || null)', (r) => ({ ...r, value: r.value || null })),
  toolAdapter('tool-null-value-is-error', '4.2', 'a tool that returns null is reported as a failing tool (is_error true)', (r) => (r.value === null ? { ...r, is_error: true } : r)),
  toolAdapter('tool-value-shallow', '4.2', 'objects and arrays nested in a tool value reach post_tool_call as their String() text (a shallow projection)', (r) => (plainJson(r.value) ? { ...r, value: shallow(r.value) } : r)),
  toolAdapter('tool-error-value-stringified', '4.2', 'a failing tool\'s error value that is not a string reaches post_tool_call as its JSON text, not as the value', (r) => (r.is_error && typeof r.value !== 'string' && plainJson(r.value) ? { ...r, value: textOf(r.value) } : r)),
  // Answers with empty or null content and no tool calls (§3.1: output is emitted; a verdict, never an error, ends the turn).
  adapted('null-answer-errors', '3.1', 'a model answer with null content and no tool calls makes the host\'s model adapter fail: the run ends in error instead of reaching output', {
    alter: modelAdapter((r) => {
      if (isAnswer(r) && r.content === null) throw new TypeError('the answer has no content');
      return r;
    }),
  }),
  nullAnswerWithoutOutput(),
  adapted('empty-answer-nulled', '4.2', 'an answer of "" is read as no answer (content || null), so output cannot carry it and fails closed', {
    parts: {
      assembleStream: async (stream) => {
        const a = await D.assembleStream(stream);
        return a.outcome === 'complete' && a.response.content === '' ? { ...a, response: { ...a.response, content: null } } : a;
      },
    },
    alter: modelAdapter((r) => (r.content === '' ? { ...r, content: null } : r)),
  }),
  // Structured content (§4.2: string | object), which a text-only adapter flattens.
  adapted('structured-input-stringified', '4.2', 'the host\'s input seam turns an input whose content is a JSON object into its JSON text', {
    alter: (s) => {
      const flat = (i: { content: Json; role: string }) => (isPlainObject(i.content) ? { ...i, content: textOf(i.content) } : i);
      const { input, inputs } = s.scenario;
      return { ...s, scenario: { ...s.scenario, ...(input ? { input: flat(input) } : {}), ...(inputs ? { inputs: inputs.map(flat) } : {}) } };
    },
  }),
  adapted('structured-answer-stringified', '4.2', 'the host\'s model adapter turns a response whose content is a JSON object into its JSON text', {
    alter: modelAdapter((r) => (isPlainObject(r.content) ? { ...r, content: textOf(r.content) } : r)),
  }),
  // §10.3: a failing tool whose error value JSON cannot carry (the announcement's third bug class).
  toolAdapter('tool-error-unprojectable-stringified', '10.3', 'a failing tool whose error value cannot be projected is passed on as its text: an ordinary tool error instead of the §10.3 host projection failure', (r) =>
    r.is_error && !plainJson(r.value) ? { ...r, value: textOf(r.value) } : r,
  ),
  // §6.3: host-synthesized messages carry no target-derived content.
  parts('host-deny-quotes-target', '6.3', 'a host-synthesized deny\'s record message quotes the target of the emission it failed', {
    buildRecord: (input, project) => {
      const r = D.buildRecord(input, project);
      const target = input.context && 'target' in input.context ? input.context.target : undefined;
      if (!r.verdict.reason?.startsWith('host_error:') || target === undefined) return r;
      return { ...r, verdict: { ...r.verdict, message: `${r.verdict.message ?? r.verdict.reason} (target: ${textOf(target)})` } };
    },
  }),
  interceptorExceptionRecorded(),
  parts('domain-location-names-members', '6.3', 'a §4.4 violation is located by the member names it sits under (payload member names in the record)', {
    validateContext: (ctx, bounds) => {
      const r = D.validateContext(ctx, bounds);
      const at = r.ok ? undefined : surrogatePath(ctx, 'context');
      return r.ok || at === undefined ? r : { ok: false, detail: `the context holds a lone Unicode surrogate at ${at}` };
    },
  }),
  projectionExceptionRecorded(),
  // §12.2: a host that declares parallel_tool_calls but runs one response's tool calls one after another.
  configured('parallel-declared-serial', '12.2', 'the host declares parallel_tool_calls but runs one response\'s tool calls one after another', (s) => ({ ...s, scenario: { ...s.scenario, parallel_tools: false } })),
  // mock_faults (§3.1, §12.1, §4.2): a host's adapters hiding a native model, stream or tool failure from the loop.
  adapted('model-failure-empty-answer', '12.1', 'the host\'s model adapter turns a failed model call into an empty answer, so the run goes on to output instead of ending as an errored call', {
    alter: (s) => ({ ...s, model: async (request) => s.model(request).catch(() => ({ content: null, tool_calls: [], finish_reason: 'stop' })) }),
  }),
  adapted('stream-failure-read-as-truncated', '12.1', 'the host\'s stream reader treats a stream whose provider failed as one that merely ended early: the stream_incomplete shape instead of an errored model call', {
    alter: streamAdapter([]),
  }),
  adapted('stream-failure-kept-as-answer', '12.1', 'the host\'s stream reader closes a stream whose provider failed as if it had finished: what arrived becomes the answer and goes out', {
    alter: streamAdapter([{ finish_reason: 'stop' }]),
  }),
  adapted('tool-throw-read-as-result', '4.2', 'the host\'s tool adapter turns a tool that throws into an ordinary null result (is_error false)', {
    alter: (s) => ({ ...s, tools: async (call) => s.tools(call).catch(() => ({ value: null, is_error: false })) }),
  }),
];

/**
 * The host's stream reader swallows a provider failure: at the failure it delivers the chunks of `tail` and ends the
 * stream, as if the provider had closed it (GRAMMAR.md §9.1, mock_faults).
 */
function streamAdapter(tail: StreamChunk[]): (s: RunSetup) => RunSetup {
  return (s) => ({
    ...s,
    model: async (request) => {
      const reply = await s.model(request);
      if (!isModelStream(reply)) return reply;
      const swallowed: ModelStream = {
        async *[Symbol.asyncIterator]() {
          const it = reply[Symbol.asyncIterator]();
          for (;;) {
            let next: IteratorResult<StreamChunk>;
            try {
              next = (await it.next()) as IteratorResult<StreamChunk>;
            } catch {
              for (const c of tail) yield c as never;
              return;
            }
            if (next.done) return;
            yield next.value as never;
          }
        },
      };
      return swallowed;
    },
  });
}

/** Every mutant, incident classes from the announcement first. */
export const MUTANTS: readonly Mutant[] = [
  // --- the announcement's incident classes ---
  parts('guard-throws-action-runs', '6.3', 'an interceptor that raises is treated as allow: the guarded action runs anyway', {
    mapInterceptorFailure: (f) => (f.kind === 'raise' ? { decision: 'allow' } : D.mapInterceptorFailure(f)),
  }),
  parts('path-emits-no-hook', '3.1', 'the tool path never emits post_tool_call (a path with no hook)', { shouldEmitPost: () => false }),
  parts('records-bind-nothing-null', '10.3', 'records carry null identities under a declared jcs-sha256 provider', recordEdit((r) => ({ ...r, input_identity: null, enforced_identity: null }))),
  parts('records-bind-nothing-constant', '10.3', 'records carry one constant identity whatever the content', recordEdit((r) => ({ ...r, input_identity: 'sha256:' + '0'.repeat(64), enforced_identity: 'sha256:' + '0'.repeat(64) }))),
  // --- enforcement ---
  parts('transform-ignored', '6', 'a transform verdict is accepted but the action uses the original target', {
    applyTransform: (ctx, t) => {
      const r = D.applyTransform(ctx, t);
      return r.ok ? { ok: true, context: ctx } : r;
    },
  }),
  parts('post-tool-deny-incorporated', '6.1', 'a denied tool result still enters the messages', { incorporateToolResult: (post) => (typeof post.target === 'string' || isPlainObject(post.target) ? post.target : { value: post.target }) }),
  parts('post-model-deny-incorporated', '6.1', 'a denied model response is still acted on', { incorporateModelResponse: () => true }),
  parts('tool-runs-after-deny', '6', 'the tool is dispatched even when pre_tool_call denies', { shouldInvokeTool: () => true }),
  parts('post-after-blocked-pre', '6.2', 'post_tool_call is emitted after a blocked pre_tool_call', { shouldEmitPost: () => true }),
  parts('startup-deny-ignored', '6.1a', 'the session processes input after a denied agent_startup', { sessionMayProceed: () => true }),
  noShutdownAfterStartupDeny(),
  contextInvalidRaised(),
  parts('shutdown-reason-completed-after-block', '6.1a', 'agent_shutdown reports summary.reason completed after a blocked session', { shutdownReason: () => 'completed' }),
  parts('deny-proceeds-in-enforce', '6', 'a combined deny at input/output/model points does not stop the action', { shouldProceed: () => true }),
  // --- evaluate_only ---
  parts('evaluate-only-applies-transform', '8', 'evaluate_only folds transforms into the context later interceptors see', compose((env, next) => next({ ...env, mode: 'enforce' }))),
  parts('evaluate-only-consults-seam', '8', 'evaluate_only offers liftable denies to the resolver', { mayConsultSeam: (point, _mode, has) => has && point !== 'agent_shutdown' }),
  // --- dispatch and failures ---
  parts('copy-isolation-missing', '7', 'interceptors receive the host\'s own context object', { copyForInterceptor: (ctx) => ctx }),
  parts('timeout-not-enforced', '6.3', 'an interceptor that times out is treated as allow', {
    mapInterceptorFailure: (f) => (f.kind === 'timeout' ? { decision: 'allow' } : D.mapInterceptorFailure(f)),
  }),
  parts('invalid-verdict-allowed', '6.3', 'a verdict failing the §5 gate is treated as allow', {
    mapInterceptorFailure: (f) => (f.kind === 'gate' ? { decision: 'allow' } : D.mapInterceptorFailure(f)),
  }),
  parts('no-interceptor-not-enforced', '7', 'enforce mode with zero interceptors proceeds as allow', { zeroInterceptorVerdict: () => ({ decision: 'allow' }) }),
  parts('context-invalid-dispatched', '6.3', 'an over-deep context is dispatched instead of failing closed', {
    validateContext: () => ({ ok: true }),
  }),
  // --- §5 gate ---
  parts('gate-accepts-host-error-reason', '5', 'an interceptor reason starting with host_error: is accepted', gateWith((v) => withoutMember(v, 'reason', (o) => typeof o.reason === 'string' && o.reason.startsWith('host_error:')))),
  parts('gate-ignores-evidence-cap', '5.3', 'evidence over 10240 canonical bytes is accepted', {
    gateVerdict: (value) => {
      const r = D.gateVerdict(withoutMember(value, 'evidence', (o) => isPlainObject(o.evidence)));
      return r.ok && isPlainObject(value) && isPlainObject(value.evidence) ? { ok: true, verdict: { ...r.verdict, evidence: value.evidence } as Verdict } : r;
    },
  }),
  parts('gate-accepts-approval-on-permit', '5', 'an approval block on allow/transform is silently dropped instead of rejected', gateWith((v) => withoutMember(v, 'approval', (o) => o.decision !== 'deny'))),
  parts('gate-non-object-is-allow', '5', 'a verdict that is not a JSON object is read as allow', gateWith((v) => (isPlainObject(v) ? v : { decision: 'allow' }))),
  parts('gate-accepts-bad-warnings', '5', 'warnings that are not an array of objects are dropped instead of rejected', gateWith((v) => withoutMember(v, 'warnings', (o) => !Array.isArray(o.warnings) || o.warnings.some((w) => !isPlainObject(w))))),
  parts('verdict-non-json-coerced', '11', 'a verdict holding a value JSON cannot carry is coerced to JSON (null, {}) and gated instead of failing as host_error:interceptor_failed', gateWith((v) => coerceToJson(v))),
  // --- aggregation (§7.3) ---
  parts('wrong-severity-order', '5.1', 'a liftable deny outranks a plain deny', {
    severity: (v) => (v.decision === 'deny' ? (v.approval === undefined ? 2 : 3) : D.severity(v)),
  }),
  parts('block-tie-highest-index', '7.3', 'ties between block verdicts go to the highest registration index', {
    selectWinner: (vs, sevArg) => {
      const sev = sevArg ?? D.severity;
      let best = D.selectWinner(vs, sev);
      for (let i = 0; i < vs.length; i++) if (best >= 0 && vs[i]!.decision === 'deny' && sev(vs[i]!) === sev(vs[best]!)) best = i;
      return best;
    },
  }),
  parts('warnings-not-deduplicated', '7.3', 'warnings are concatenated without removing (reason, message) duplicates', { unionWarnings: (vs) => vs.flatMap((v) => v.warnings ?? []) }),
  parts('labels-kept-on-deny', '5.4', 'result_labels are persisted for an action that did not proceed', { keepLabels: () => true }),
  parts('labels-not-persisted', '5.4', 'result_labels are never persisted', { unionLabels: () => [] }),
  parts('evaluate-only-drops-labels', '5.4', 'evaluate_only drops permit labels whenever the recorded verdict is a deny, though the action proceeded', { keepLabels: (v) => v.decision !== 'deny' }),
  // --- transforms (§5.2) ---
  parts('policy-target-rejected', '5.2', 'the deprecated $policy_target root is rejected', {
    applyTransform: (ctx, t) =>
      typeof t.path === 'string' && t.path.startsWith('$policy_target') ? { ok: false, reason: HOST_ERROR.transform_target_forbidden, detail: 'mutant' } : D.applyTransform(ctx, t),
  }),
  parts('bad-path-is-noop', '5.2', 'a transform path that does not resolve is ignored instead of failing closed', {
    applyTransform: (ctx, t) => {
      const r = D.applyTransform(ctx, t);
      return !r.ok && r.reason === HOST_ERROR.transform_invalid ? { ok: true, context: ctx } : r;
    },
  }),
  // --- profiles (§7.4, §7.5) ---
  parts('run-all-short-circuits', '7.4', 'sequential/run_all stops at the first deny like first_deny', compose((env, next) =>
    next(env.composition.profile === 'sequential/run_all' ? { ...env, composition: { profile: 'sequential/first_deny', on_approval: 'stop' } } : env),
  )),
  parts('first-deny-runs-all', '7.4', 'sequential/first_deny keeps invoking interceptors after a deny', compose((env, next) =>
    next(env.composition.profile === 'sequential/first_deny' ? { ...env, composition: { profile: 'sequential/run_all' } } : env),
  )),
  parts('resume-treated-as-stop', '7.4', 'on_approval resume ends the fold after an approval like stop', compose((env, next) =>
    next(env.composition.on_approval === 'resume' ? { ...env, composition: { ...env.composition, on_approval: 'stop' } } : env),
  )),
  parts('fold-truncated-wrong', '10.3', 'fold_truncated is always recorded false', compose(async (env, next) => ({ ...(await next(env)), truncated: false }))),
  parts('wrong-decided-by', '10.3', 'a pure-allow combination records decided_by 0 instead of null', compose(async (env, next) => {
    const r = await next(env);
    return r.decidedBy === null ? { ...r, decidedBy: 0 } : r;
  })),
  parts('parallel-without-snapshot', '7.5', 'parallel interceptors observe each other\'s transforms', { composeParallel: parallelWithoutSnapshot }),
  parts('transform-conflict-ignored', '7.5', 'two parallel transforms do not conflict: the last one is applied', { composeParallel: conflictIgnored }),
  parts('unanimous-as-strictest', '7.5', 'parallel/unanimous aggregates like strictest (a transform is not a disagreement)', {
    composeParallel: (env) =>
      D.composeParallel(env.composition.profile === 'parallel/unanimous' ? { ...env, composition: { profile: 'parallel/strictest', on_transform_conflict: env.composition.on_transform_conflict ?? 'deny' } } : env),
  }),
  // --- approval seam (§9) ---
  parts('echo-rule-unchecked', '9', 'a resolution with a different context_identity is accepted', {
    validateResolution: (res, req) => D.validateResolution(isPlainObject(res) ? { ...res, context_identity: req.context_identity } : res, req),
  }),
  parts('resolver-consulted-at-shutdown', '6.1a', 'a liftable deny at agent_shutdown is offered to the resolver', { mayConsultSeam: (_p, mode, has) => has && mode === 'enforce' }),
  parts('unresolved-lifts', '9', 'an unresolved resolution is treated as approve/allow', {
    validateResolution: (res, req) =>
      isPlainObject(res) && res.outcome === 'unresolved' && res.context_identity === req.context_identity && res.verdict === undefined
        ? { ok: true, outcome: 'approve', verdict: { decision: 'allow' } }
        : D.validateResolution(res, req),
  }),
  parts('resolver-failure-lifts', '9', 'a resolver that raises or times out lifts the deny', {
    consultSeam: async (deny, ctx, deps) => {
      const r = await D.consultSeam(deny, ctx, deps);
      return !r.lifted && r.verdict.reason === HOST_ERROR.approval_resolver_failed ? { lifted: true, verdict: { decision: 'allow' }, resolutionVerdict: { decision: 'allow' } } : r;
    },
  }),
  parts('validation-order-swapped', '9', 'resolution shape is checked before the echo rule', {
    validateResolution: (res, req) => {
      const bad = isPlainObject(res) && !['approve', 'reject', 'unresolved'].includes(res.outcome as string);
      return bad ? { ok: false, reason: HOST_ERROR.approval_resolver_failed, detail: 'mutant' } : D.validateResolution(res, req);
    },
  }),
  parts('approve-with-deny-accepted', '9', 'approve carrying a deny verdict is taken as a rejection instead of verdict_invalid', {
    validateResolution: (res, req) => {
      const r = D.validateResolution(res, req);
      return !r.ok && r.reason === HOST_ERROR.verdict_invalid && isPlainObject(res) && isPlainObject(res.verdict) && res.verdict.decision === 'deny'
        ? { ok: true, outcome: 'reject', verdict: res.verdict as unknown as Verdict }
        : r;
    },
  }),
  // --- records (§10.3) ---
  parts('transform-value-leaks', '10.3', 'the record keeps transform.value', {
    projectVerdict: (v, t) => {
      const p = D.projectVerdict(v, t);
      return v.transform && p.transform ? { ...p, transform: { ...p.transform, value: v.transform.value ?? null } as { path: string } } : p;
    },
  }),
  parts('message-not-truncated', '10.3', 'record messages are kept at full length', { truncateMessage: (m) => m }),
  parts('truncation-splits-characters', '10.3', 'record messages are cut at a byte offset, splitting multi-byte characters', { truncateMessage: byteCut }),
  parts('approval-members-kept', '10.3', 'the record keeps the approval block\'s members', {
    projectVerdict: (v, t) => (v.approval ? { ...D.projectVerdict(v, t), approval: v.approval as Record<string, never> } : D.projectVerdict(v, t)),
  }),
  parts('evidence-dropped', '5.3', 'evidence does not reach the record', projectedWithout('evidence')),
  parts('resolved-by-missing', '10.3', 'the record never says whether the seam was consulted', recordWithout('resolved_by')),
  parts('unconsulted-knobs-recorded', '10.3', 'the record lists every knob, consulted or not', recordEdit((r) => ({
    ...r,
    composition: { on_approval: 'stop', on_disagreement: 'deny', on_transform_conflict: 'deny', ...r.composition },
  }))),
  parts('interceptors-registered-counts-invoked', '10.3', 'interceptors_registered counts only the interceptors that ran', recordEdit((r) => ({ ...r, interceptors_registered: r.verdicts?.length ?? 0 }))),
  parts('timestamp-dropped', '10.3', 'the record omits the context timestamp', recordWithout('timestamp')),
  parts('enforced-identity-stale', '10.3', 'enforced_identity is never recomputed after a transform', { enforcedIdentityNeedsRecompute: () => false }),
  // --- context construction (§4) and dispatch order (§7.4) ---
  parts('sequence-starts-at-one', '4.1', 'sequence numbering starts at 1 on agent_startup', { nextSequence: (c) => ++c.next }),
  parts('empty-tool-calls-omitted', '4.2', 'post_model_call omits response.tool_calls when the model returned none', {
    buildContext: (meta, fields) => {
      const ctx = D.buildContext(meta, fields);
      const response = ctx.response;
      if (meta.point === 'post_model_call' && isPlainObject(response) && Array.isArray(response.tool_calls) && response.tool_calls.length === 0) {
        const r: JsonObject = { ...response };
        delete r.tool_calls;
        ctx.response = r;
        if (isPlainObject(ctx.target)) ctx.target = { ...r };
      }
      return ctx;
    },
  }),
  parts('write-back-missing', '4.3', 'a transform rewrites target but not the conditional field it aliases', {
    applyTransform: (ctx, t) => {
      const r = D.applyTransform(ctx, t);
      if (!r.ok) return r;
      const field = TARGET_FIELD[ctx.interception_point as InterceptionPoint];
      const original = getDotted(ctx, field);
      if (!original.found) return r;
      const restored = setPath(r.context, parseDottedPath(field), original.value as Json);
      return restored.ok ? { ok: true, context: { ...(restored.root as JsonObject), target: r.context.target ?? null } } : r;
    },
  }),
  parts('reverse-registration-order', '7.4', 'sequential profiles invoke interceptors in reverse registration order', {
    composeSequential: (env) => D.composeSequential({ ...env, invoke: (i, c) => env.invoke(env.count - 1 - i, c) }),
  }),
  parts('failure-decided-by-null', '10.3', 'a winning §6.3 failure deny records decided_by null instead of the failing index', compose(async (env, next) => {
    const r = await next(env);
    const failures: string[] = [HOST_ERROR.interceptor_failed, HOST_ERROR.interceptor_timeout, HOST_ERROR.verdict_invalid];
    return failures.includes(r.winner.reason ?? '') ? { ...r, decidedBy: null } : r;
  })),
  parts('evaluate-only-enforces', '8', 'evaluate_only blocks actions on a deny as if enforcing', { shouldProceed: (v) => v.decision !== 'deny' }),
  parts('approval-identity-over-unredacted', '9', 'the approval request identity is computed over the unredacted context, not what the approver saw', {
    consultSeam: (deny, ctx, deps) => D.consultSeam(deny, ctx, { ...deps, provider: { ...deps.provider, compute: () => deps.provider.compute(ctx) } }),
  }),
  // --- audit additions: the subtle §7.4–§7.6 / §9 / §10.3 rules ---
  parts('resume-consults-first-only', '7.4', 'on_approval resume consults only the first liftable deny; later ones reuse that answer', { composeSequential: resumeReusesFirstAnswer }),
  parts('consult-before-fold', '9', 'the approval request presents (and binds) the input context, not the context as folded by earlier transforms', {
    composeSequential: (env) => D.composeSequential(env.consult ? { ...env, consult: (deny) => env.consult!(deny, env.context) } : env),
  }),
  parts('run-all-approval-ignores-fold', '7.4', 'a run_all approval transform is applied to the input context instead of on top of the folded one', { composeSequential: runAllApprovalOnInput }),
  parts('strictest-applies-losing-transform', '7.5', 'lifting a liftable deny in strictest also applies the lower-severity transform that lost', { composeParallel: strictestAppliesLosingTransform }),
  parts('resume-always-truncated', '10.3', 'on_approval resume records fold_truncated true whenever an approval happened', compose(async (env, next) => {
    const r = await next(env);
    return env.composition.on_approval === 'resume' && r.resolvedBy === 'approval' ? { ...r, truncated: true } : r;
  })),
  parts('run-all-deny-identity-unfolded', '10.3', 'on a combined deny in run_all, enforced_identity is computed over the unfolded input context', compose(async (env, next) => {
    const r = await next(env);
    return env.composition.profile === 'sequential/run_all' && r.winner.decision === 'deny' ? { ...r, context: env.context } : r;
  })),
  parts('synthesized-decided-by-index', '10.3', 'a profile-synthesized deny (conflict, disagreement) records decided_by 0 instead of null', compose(async (env, next) => {
    const r = await next(env);
    const synthesized: string[] = [HOST_ERROR.transform_conflict, HOST_ERROR.composition_disagreement];
    return synthesized.includes(r.winner.reason ?? '') && r.decidedBy === null ? { ...r, decidedBy: 0 } : r;
  })),
  parts('transform-failure-decided-by-index', '10.3', 'a §5.2 transform-application failure records the transforming interceptor\'s index instead of null', compose(async (env, next) => {
    const r = await next(env);
    const failures: string[] = [HOST_ERROR.transform_invalid, HOST_ERROR.transform_target_forbidden];
    return failures.includes(r.winner.reason ?? '') && r.decidedBy === null && r.slots.length > 0 ? { ...r, decidedBy: r.slots[r.slots.length - 1]!.index } : r;
  })),
  parts('labels-from-denies', '7.3', 'result_labels carried by deny verdicts join the union when the emission proceeds', {
    unionLabels: (vs) => D.unionLabels(vs.map((v) => (v.decision === 'deny' ? ({ decision: 'allow', result_labels: v.result_labels } as Verdict) : v))),
  }),
  parts('resolutions-unioned-last', '7.3', 'resolution warnings/labels join the unions after every interceptor, even those that ran after the approval (resume)', compose(async (env, next) => {
    const { returned: _order, ...rest } = await next(env);
    return rest;
  })),
  parts('evaluate-only-skips-transform-validation', '8', 'evaluate_only neither applies nor validates transforms (a bad path passes unnoticed)', compose((env, next) =>
    next(env.mode === 'evaluate_only' ? { ...env, applyTransform: (ctx) => ({ ok: true, context: ctx }) } : env),
  )),
  parts('warning-messages-not-truncated', '10.3', 'warnings[].message reaches the record at full length (only message is truncated)', {
    projectVerdict: (v, t) => {
      const p = D.projectVerdict(v, t);
      return v.warnings && p.warnings ? { ...p, warnings: v.warnings.map((w) => ({ ...w })) } : p;
    },
  }),
  parts('context-invalid-decided-by-zero', '10.3', 'a fail-closed context_invalid record names interceptor 0 as decided_by', recordEdit((r) => (r.verdict.reason === HOST_ERROR.context_invalid && r.decided_by === null ? { ...r, decided_by: 0 } : r))),
  // Revised (issue 11): absent means false in run_all (the canonical host omits it), so only first_deny records,
  // which the published corpus pins at false, are mutated.
  parts('fold-truncated-omitted-when-false', '10.3', 'sequential/first_deny records omit fold_truncated when it is false', recordEdit((r) => {
    if (r.fold_truncated !== false || r.composition.profile !== 'sequential/first_deny') return r;
    const { fold_truncated: _gone, ...rest } = r;
    return rest as InterceptionRecord;
  })),
  parts('post-tool-args-untransformed', '4.2', 'post_tool_call reports the args the model asked for, not the (transformed) args the tool received', postToolArgsUntransformed()),
  parts('run-all-allow-lift-drops-fold', '7.4', 'a run_all approval that lifts with allow proceeds with the input context, dropping the folded transforms', compose(async (env, next) => {
    const r = await next(env);
    return env.composition.profile === 'sequential/run_all' && r.resolvedBy === 'approval' && r.winner.decision === 'allow' ? { ...r, context: env.context } : r;
  })),
  parts('parallel-approval-transform-ignored', '7.6', 'in the parallel profiles a resolver\'s transform is accepted but not applied', {
    composeParallel: async (env) => {
      const r = await D.composeParallel(env);
      return r.resolvedBy === 'approval' && r.winner.decision === 'transform' ? { ...r, context: env.context } : r;
    },
  }),
  parts('truncation-ellipsis-extra', '10.3', 'record messages are cut to 256 bytes and then get the … on top (259 bytes)', {
    truncateMessage: (m) => (Buffer.byteLength(m, 'utf8') <= 256 ? m : D.truncateMessage(m, 259)),
  }),
  parts('run-all-fold-truncated-always-true', '10.3', 'sequential/run_all records fold_truncated true even when every interceptor ran', recordEdit((r) =>
    r.composition.profile === 'sequential/run_all' && (r.verdicts?.length ?? 0) > 0 ? { ...r, fold_truncated: true } : r,
  )),
  parts('reject-keeps-triggering-deny', '9', 'on reject the triggering deny stands and the resolver\'s own deny is dropped from the combined verdict', {
    consultSeam: async (deny, ctx, deps) => {
      const r = await D.consultSeam(deny, ctx, deps);
      return !r.lifted && r.resolutionVerdict?.decision === 'deny' ? { ...r, verdict: deny } : r;
    },
  }),
  parts('evaluate-only-zero-interceptors-allow', '7', 'evaluate_only with zero interceptors records allow instead of the no_interceptor deny enforce would compute', {
    zeroInterceptorVerdict: (mode) => (mode === 'evaluate_only' ? { decision: 'allow' } : D.zeroInterceptorVerdict(mode)),
  }),
  // --- concurrency and configuration ---
  parts('sequence-reused-under-concurrency', '12.2', 'sequence numbers are assigned lazily and repeat across concurrent emissions', { nextSequence: lazySequence }),
  configured('knob-default-resume', '7.2', 'on_approval defaults to resume instead of stop', (s) =>
    s.composition.profile === 'sequential/first_deny' && s.composition.on_approval === undefined ? { ...s, composition: { ...s.composition, on_approval: 'resume' } } : s,
  ),
  undeclaredPosture('tool-seam-terminates-undeclared', '6.2', 'a host_error:* deny at the tool seam ends the turn though the host declares tool_seam_host_error continue', { tool_seam_host_error: 'terminate' }),
  undeclaredPosture('stop-approval-always-truncated-undeclared', '10.3', 'an approved stop for the last interceptor records fold_truncated true though the host declares stop_approval_fold_truncated when_skipped', { stop_approval_fold_truncated: 'always' }),
  configured('knob-default-disagreement-approval', '7.2', 'on_disagreement defaults to approval instead of deny', (s) =>
    s.composition.profile === 'parallel/unanimous' && s.composition.on_disagreement === undefined ? { ...s, composition: { ...s.composition, on_disagreement: 'approval' } } : s,
  ),
  // --- the spec's current text: §10.3 host projection failure, §12.1 streaming, §12.1a release ---
  parts('projection-failure-fails-open', '10.3', 'a value the host cannot project to the wire lets the guarded action proceed (the failed emission does not block)', { hostFailureProceeds: () => true }),
  parts('projection-failure-wrong-reason', '11', 'a host projection failure is recorded as host_error:interceptor_failed instead of host_error:context_invalid', {
    hostFailureVerdict: (message) => ({ ...D.hostFailureVerdict(message), reason: HOST_ERROR.interceptor_failed }),
  }),
  parts('stream-first-chunk-only', '12.1', 'a buffering host emits post_model_call over the first chunk instead of the assembled response', firstChunkOnly()),
  parts('stream-truncated-settles-clean', '12.1', 'a buffering host treats a stream that ended without finish_reason as complete (no stream_incomplete, the partial response is used)', {
    assembleStream: async (stream) => {
      const a = await D.assembleStream(stream);
      return a.outcome === 'incomplete' ? { outcome: 'complete', response: { ...a.response, finish_reason: 'stop' } } : a;
    },
  }),
  parts('release-unverdicted-output', '12.1a', 'after an output transform the caller receives the answer as it stood before the verdict', {
    releaseOutput: (out, answer) => (out.proceed ? answer : null),
  }),
  incremental('incremental-release-ahead-of-verdict', '12.1', 'incremental mediation releases a segment whose covering verdict denied it', {
    segmentRelease: (s) => (s.post.proceed ? D.segmentRelease(s) : s.chunk),
  }),
  incremental('incremental-deny-does-not-terminate', '12.1', 'incremental mediation goes on consuming and evaluating the stream after a deny', { streamGoesOn: () => true }),
  configured('incremental-reads-ahead', '12.1', 'incremental mediation prefetches the next chunk before the current segment is evaluated (a deny leaves one consumed)', (s) => ({
    ...s,
    model: async (request) => {
      const reply = await s.model(request);
      return isModelStream(reply) ? readAhead(reply) : reply;
    },
  }), 'incremental'),
  incremental('incremental-residue-settles-clean', '12.1', 'incremental mediation settles the unevaluated residue of a dead stream clean instead of failing closed', { residueFailsClosed: () => false }),
  incremental('incremental-persists-withheld', '12.1', 'incremental mediation persists the withheld content of a terminated stream into the session history', {
    incorporateTerminatedStream: (assembled) => assembled,
  }),
  incremental('incremental-releases-raw-chunk', '12.1a', 'incremental mediation releases the raw chunk instead of the verdicted (transformed) content', {
    segmentRelease: (s) => (s.post.proceed ? s.chunk : ''),
  }),
  ...ISSUE_18,
  // The bug the fuzzer found in four framework integrations: they rebuilt the input message from the accepted content
  // and kept the message's old role, so a transform of input.role never reached the model.
  parts('input-role-transform-dropped', '4.3', 'an input transform of input.role is dropped: the turn goes on with the role the input came with', {
    applyTransform: (ctx, transform) => {
      const r = D.applyTransform(ctx, transform);
      if (!r.ok || ctx.interception_point !== 'input') return r;
      const role = (ctx.input as JsonObject).role ?? null;
      return { ok: true, context: D.writeBackTarget(r.context, { ...(r.context.target as JsonObject), role }) };
    },
  }),
  // --- issue 25: the MUSTs no mutant broke (coverage --thin lists what is left) ---
  toolStartsBeforeComposition(),
  postDenyReexecutes('post-tool-deny-reexecutes', 'after a deny at post_tool_call the host runs the tool again (a retry) and discards that result too', 'tool'),
  postDenyReexecutes('post-model-deny-reexecutes', 'after a deny at post_model_call the host calls the model again (a retry) and discards that response too', 'model'),
  parts('shutdown-never-emitted', '3.1', 'the session ends without agent_shutdown, whatever happened in it', { shouldEmitShutdown: () => false }),
  parts('sequence-not-advanced', '3.1', 'the sequence counter advances once, after agent_startup: every later emission carries sequence 1', { nextSequence: (c) => (c.next === 0 ? c.next++ : c.next) }),
  parts('gate-decision-absent-is-allow', '5', 'a verdict object without a decision is read as allow', gateWith((v) => (isPlainObject(v) && !('decision' in v) ? { ...v, decision: 'allow' } : v))),
  parts('gate-transform-on-non-transform-dropped', '5', 'a transform member on an allow or deny verdict is dropped instead of rejected', gateWith((v) => withoutMember(v, 'transform', (o) => o.decision !== 'transform'))),
  parts('gate-accepts-bad-evidence', '5', 'evidence that is not an object is dropped instead of rejected', gateWith((v) => withoutMember(v, 'evidence', (o) => !isPlainObject(o.evidence)))),
  parts('gate-accepts-bad-labels', '5', 'result_labels that are not an array of strings are dropped instead of rejected', gateWith((v) => withoutMember(v, 'result_labels', (o) => !Array.isArray(o.result_labels) || o.result_labels.some((l) => typeof l !== 'string')))),
  parts('evidence-cap-exclusive', '5', 'evidence of exactly 10240 canonical bytes is rejected (the cap read as exclusive)', { gateVerdict: evidenceCapExclusive }),
  parts('warnings-not-recorded', '5.1', 'the record drops the combined verdict\'s warnings', projectedWithout('warnings')),
  parts('absent-value-leaves-target', '5.2', 'a transform without a value leaves the addressed location unchanged instead of setting it to null', {
    applyTransform: (ctx, t) => (t.value === undefined && D.applyTransform(ctx, t).ok ? { ok: true, context: ctx } : D.applyTransform(ctx, t)),
  }),
  // What the MAF middleware does (its README, MAF-3): the failed tool's exception is raised again after post_tool_call.
  parts('failed-tool-transform-ignored', '4.3', 'a post_tool_call transform of a failed tool\'s result is recorded but the model gets the failure as the tool gave it', {
    applyTransform: (ctx, t) => {
      const result = ctx.tool_result;
      return ctx.interception_point === 'post_tool_call' && isPlainObject(result) && result.is_error === true ? { ok: true, context: ctx } : D.applyTransform(ctx, t);
    },
  }),
  // What Stryker showed (an emptied findDomainViolation survived the suite): the host leaves §4.4 to the provider.
  parts('domain-left-to-provider', '4.4', 'the host checks the §4.4 value domain only through its identity provider: with none, a context holding a lone surrogate is dispatched', {
    validateContext: (ctx, bounds) => {
      const r = D.validateContext(ctx, bounds);
      return !r.ok && / which interoperable JSON cannot carry \(§4\.4\)$/.test(r.detail) ? { ok: true } : r;
    },
  }),
  parts('session-boundary-transform-ignored', '4.3', 'a transform at agent_startup or agent_shutdown is accepted as allow instead of failing with transform_target_forbidden', {
    applyTransform: (ctx, t) => (ctx.interception_point === 'agent_startup' || ctx.interception_point === 'agent_shutdown' ? { ok: true, context: ctx } : D.applyTransform(ctx, t)),
  }),
  shutdownDenyRetractsOutput(),
  parts('profile-misrecorded', '7.1', 'every record names sequential/first_deny as its profile, whatever profile ran', recordEdit((r) => ({ ...r, composition: { profile: 'sequential/first_deny', on_approval: 'stop' } }))),
  parts('strictest-majority-allows', '7.2', 'parallel/strictest lets a majority of allows outvote a single block (a quorum)', { composeParallel: strictestMajority }),
  parts('strictest-lone-transform-dropped', '7.5', 'parallel/strictest records a lone winning transform but proceeds with the untransformed target', {
    composeParallel: async (env) => {
      const r = await D.composeParallel(env);
      return env.composition.profile === 'parallel/strictest' && r.winner.decision === 'transform' && r.resolvedBy === undefined ? { ...r, context: env.context } : r;
    },
  }),
  parts('unanimous-transforms-conflict', '7.5', 'parallel/unanimous reports two transforms as host_error:transform_conflict instead of a disagreement', {
    composeParallel: async (env) => {
      const r = await D.composeParallel(env);
      const transforms = r.slots.filter((x) => x.verdict.decision === 'transform').length;
      return env.composition.profile === 'parallel/unanimous' && transforms >= 2 && r.winner.reason === HOST_ERROR.composition_disagreement ? { ...r, winner: { ...r.winner, reason: HOST_ERROR.transform_conflict } } : r;
    },
  }),
  parts('evaluate-only-recorded-as-enforce', '8', 'records of an evaluate_only session say mode enforce', recordEdit((r) => ({ ...r, mode: 'enforce' }))),
  parts('null-provider-misstated', '10.1', 'a host running without an identity provider records identity_provider jcs-sha256', recordEdit((r) => (r.identity_provider === null ? { ...r, identity_provider: 'jcs-sha256' } : r))),
  shutdownRecordMissing(),
  parts('labels-dropped-from-record', '10.3', 'the record drops the combined verdict\'s result_labels', projectedWithout('result_labels')),
  parts('verdicts-summary-missing', '10.3', 'multi-verdict records leave out the verdicts summary', recordWithout('verdicts')),
  parts('record-carries-target', '10.3', 'the record carries the emission\'s target (payload) beside the §10.3 members', { buildRecord: (input, project) => ({ ...D.buildRecord(input, project), target: input.context?.target ?? null }) as InterceptionRecord }),
  parts('timeout-reason-misnamed', '11', 'an interceptor timeout is recorded under the unreserved reason host_error:timeout', {
    mapInterceptorFailure: (f) => (f.kind === 'timeout' ? { decision: 'deny', reason: 'host_error:timeout' as Verdict['reason'] } : D.mapInterceptorFailure(f)),
  }),
  parts('release-rewrites-output', '12.1a', 'the host appends a note to the verdicted answer between the output verdict and its release', {
    releaseOutput: (out, answer) => {
      const r = D.releaseOutput(out, answer);
      return typeof r === 'string' ? `${r} (reviewed)` : r;
    },
  }),
  parts('post-tool-call-id-rewritten', '3.1', 'post_tool_call carries a tool_call.id of its own instead of the one its pre_tool_call carried', {
    buildContext: (meta, fields) => {
      const call = fields.tool_call;
      return meta.point === 'post_tool_call' && isPlainObject(call) && typeof call.id === 'string' ? D.buildContext(meta, { ...fields, tool_call: { ...call, id: `${call.id}-result` } }) : D.buildContext(meta, fields);
    },
  }),
  parts('all-permit-first-transform-recorded', '7.4', 'a sequential fold of several transforms records the first transform as the combined verdict instead of the last', compose(async (env, next) => {
    const r = await next(env);
    if (!env.composition.profile.startsWith('sequential/') || r.winner.decision !== 'transform' || r.resolvedBy !== undefined) return r;
    const first = r.slots.find((x) => x.verdict.decision === 'transform');
    return first && first.index !== r.decidedBy ? { ...r, winner: first.verdict, decidedBy: first.index } : r;
  })),
  parts('no-resolver-records-rejection', '9', 'with no resolver registered a liftable deny is recorded as resolved_by rejection, as if the seam had been consulted', recordEdit((r) =>
    r.resolved_by === undefined && r.verdict.decision === 'deny' && r.verdict.approval !== undefined && r.mode === 'enforce' && r.interception_point !== 'agent_shutdown' ? { ...r, resolved_by: 'rejection' } : r,
  )),
  configured('provider-failure-falls-back-to-none', '10.1', 'a host whose identity provider fails runs without one (null identities) instead of failing the emission closed', (s) => (s.identity_provider === 'ctk-fault' ? { ...s, identity_provider: null } : s)),
  parts('pre-tool-target-whole-call', '4.2', 'pre_tool_call\'s target is the whole tool_call instead of tool_call.args', {
    buildContext: (meta, fields) => {
      const ctx = D.buildContext(meta, fields);
      return meta.point === 'pre_tool_call' && isPlainObject(ctx.tool_call) ? { ...ctx, target: { ...ctx.tool_call } } : ctx;
    },
  }),
  parts('extensions-dropped', '4.6', 'the host drops the extensions block from the contexts it builds', {
    buildContext: (meta, fields) => {
      const { extensions: _gone, ...rest } = fields;
      return D.buildContext(meta, rest);
    },
  }),
  parts('transform-root-rewritten', '5.2', 'a transform path rooted elsewhere than $target is re-rooted at $target and applied instead of failing with transform_target_forbidden', {
    applyTransform: (ctx, t) => {
      const other = typeof t.path === 'string' ? /^\$(?!target\b|policy_target\b)[A-Za-z_][A-Za-z0-9_]*/.exec(t.path) : null;
      return other ? D.applyTransform(ctx, { ...t, path: `$target${t.path.slice(other[0].length)}` }) : D.applyTransform(ctx, t);
    },
  }),
  parts('transform-drops-siblings', '5.2', 'a transform of one member rebuilds the target from the addressed member alone, dropping its siblings', { applyTransform: transformDropsSiblings }),
  // --- fuzz findings against the framework integrations (issue 18 item 4; vectors 620–659) ---
  parts('labels-not-at-output', '5.4', 'the labels of the model call an answer derives from do not resurface at output (the AI SDK integration lost them)', {
    buildContext: (meta, fields) => {
      if (meta.point !== 'output' || fields.extensions === undefined) return D.buildContext(meta, fields);
      const { extensions: _dropped, ...rest } = fields;
      return D.buildContext(meta, rest);
    },
  }),
  configured('input-role-transform-not-sent', '4.3', 'an input transform of the role reaches interceptors but the model gets the message with its original role', (s) => ({
    ...s,
    model: (request) => {
      const input = s.scenario.input;
      const messages = Array.isArray(request.messages) && input ? request.messages.map((m) => (m && typeof m === 'object' && (m as { content?: unknown }).content === input.content ? { ...m, role: input.role } : m)) : request.messages;
      return s.model({ ...request, messages } as typeof request);
    },
  })),
  // --- issue 30: killed by the cross-check invariants alone (crosscheck.ts), no vector written for them ---
  configured('system-rendered-as-user', '4.2', 'the harness shows interceptors a system message while the model gets it as user text wrapped in <system>…</system> (a framework rendering the spec projection)', (s) => ({
    ...s,
    model: (request) => s.model({ ...request, messages: (Array.isArray(request.messages) ? request.messages : []).map((m) => (isPlainObject(m) && m.role === 'system' ? { role: 'user', content: `<system>${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}</system>` } : m)) } as typeof request),
  })),
  untransformedToolArgs(),
  configured('response-altered-before-post-model', '4.2', 'the harness hands the host every model response with finish_reason "stop", so post_model_call shows a response other than the one the model returned', (s) => ({
    ...s,
    model: async (request) => {
      const reply = await s.model(request);
      if (isModelStream(reply)) return reply;
      return { ...reply, finish_reason: 'stop' };
    },
  })),
  rawAnswerReturned(),
  // Issue 30: defects a framework host had that only later turns show.
  laidOut('input-role-by-text', '4.2', "the host remembers an input's role by its text: an earlier turn's message with the same content is sent with the later turn's role", { history: 'session' }, (s) => ({ ...s, model: rolesByText(s) })),
  laidOutParts('answer-output-labels-not-carried', '5.4', "the labels an output verdict puts on an answer are not persisted with it, so they never resurface where later turns carry the answer", { history: 'answers' }, { answerLabels: (response) => response }),
  configured('lookalike-read-as-number', '10.2', 'the host reads a plain object shaped like the lossless number wrapper ({"isLosslessNumber": true, "value": "12"}) in tool args and results as the number it spells', (s) => ({
    ...s,
    model: async (request) => {
      const r = await s.model(request);
      return isModelStream(r) ? r : { ...r, tool_calls: r.tool_calls.map((c) => ({ ...c, args: numbersFromLookalikes(c.args) as JsonObject })) };
    },
    tools: async (call) => {
      const r = await s.tools(call);
      return { ...r, value: numbersFromLookalikes(r.value) };
    },
  })),
  parts('labels-keyed-by-text', '5.4', 'result_labels are kept by message text: a later message with the same text as labelled data carries its labels', {
    messageLabels: (message, own, history, historyLabels) => mergeLabels(own, ...history.map((h, i) => (deepEqual(h.content, message.content) ? historyLabels[i] : undefined))),
  }),
  // --- the hook session's own obligations, on the CTK's session host (issue 34) ---
  sessionWired('session-startup-guard-missing', '6.1a', "after a denied agent_startup the hook session lets a framework's turn through (its guard never refuses): input is emitted and the turn runs", (hooks) => ({
    ...hooks,
    input: (input, o) => {
      hooks.state.startupDenied = false;
      return hooks.input(input, o);
    },
  })),
  sessionWired('session-holds-ignored', '5.2', 'a framework whose input seam holds text only passes no holds: an input transform to object content is applied instead of failing as transform_invalid', (hooks) => ({
    ...hooks,
    input: (input, o) => {
      const { holds: _dropped, ...rest } = o ?? {};
      return hooks.input(input, rest);
    },
  })),
];

// --- issue 30 mutants' helpers ---

/** §4.3 / §6 mutant: a tool is called with the args the model produced, not the ones the pre_tool_call verdict left. */
function untransformedToolArgs(): Mutant {
  return {
    id: 'tool-called-with-untransformed-args',
    clause: '4.3',
    description: 'the harness calls each tool with the args the model produced, not the ones its pre_tool_call verdict left (post_tool_call still reports the verdicted args)',
    harness: () => {
      const inner = createReferenceHarness();
      return {
        ...inner,
        setup: (s: RunSetup) => {
          const produced = new Map<string, Json>();
          const remember = (calls: unknown) => {
            for (const c of Array.isArray(calls) ? calls : []) if (isPlainObject(c) && typeof c.id === 'string') produced.set(c.id, structuredClone(c.args ?? {}) as Json);
          };
          return inner.setup({
            ...s,
            model: async (request) => {
              const reply = await s.model(request);
              if (!isModelStream(reply)) {
                remember(reply.tool_calls);
                return reply;
              }
              return {
                async *[Symbol.asyncIterator]() {
                  for await (const chunk of reply) {
                    remember(chunk.tool_calls);
                    yield chunk;
                  }
                },
              };
            },
            tools: (call) => s.tools(produced.has(call.id) ? { ...call, args: produced.get(call.id) as JsonObject } : call),
          });
        },
      };
    },
  };
}

/** §6 / §12.1a mutant: a turn returns the model's raw answer instead of the output its verdict left (a transform is lost). */
function rawAnswerReturned(): Mutant {
  return {
    id: 'turn-returns-raw-answer',
    clause: '6',
    description: 'a completed turn returns the model\'s raw answer instead of the output its verdict left',
    harness: () => {
      const inner = createReferenceHarness();
      let last: Json | undefined;
      return {
        ...inner,
        setup: (s: RunSetup) => {
          last = undefined;
          return inner.setup({
            ...s,
            model: async (request) => {
              const reply = await s.model(request);
              if (!isModelStream(reply)) {
                last = reply.content as Json;
                return reply;
              }
              let text = '';
              return {
                async *[Symbol.asyncIterator]() {
                  for await (const chunk of reply) {
                    text += typeof chunk.content === 'string' ? chunk.content : '';
                    last = text;
                    yield chunk;
                  }
                },
              };
            },
          });
        },
        run: async () => {
          const report = await inner.run();
          if (report.outcome !== 'completed' || last === undefined) return report;
          const outputs = report.outputs ? [...report.outputs.slice(0, -1), last] : undefined;
          return { ...report, final_output: last, ...(outputs ? { outputs } : {}) };
        },
      };
    },
  };
}

// --- issue 25 mutants' helpers (function declarations: hoisted, so MUTANTS above can use them) ---

/**
 * §12.2 item 1 / §7 mutant: the host starts a tool as soon as the first interceptor has permitted its pre_tool_call,
 * without waiting for the rest of the composition; a later interceptor's deny or transform then comes too late. The
 * call the host makes afterwards gets the early invocation's result (the tool runs once).
 */
function toolStartsBeforeComposition(): Mutant {
  return {
    id: 'tool-starts-before-composition',
    clause: '12.2',
    description: 'a tool starts once the first interceptor has permitted its pre_tool_call, before the rest of the composition completes (a later deny or transform comes too late)',
    harness: () => {
      const inner = createReferenceHarness();
      return {
        ...inner,
        setup: (s: RunSetup) => {
          const started = new Map<string, Promise<ToolCallResult>>();
          const start = (call: ToolCallRequest): Promise<ToolCallResult> => {
            if (!started.has(call.id)) started.set(call.id, s.tools(call));
            return started.get(call.id)!;
          };
          const early = (x: ScriptedInterceptor): ScriptedInterceptor =>
            x.index !== 0
              ? x
              : {
                  index: x.index,
                  name: x.name,
                  decide: async (ctx: JsonObject) => {
                    const action = await x.decide(ctx);
                    const call = ctx.tool_call;
                    const permits = action.kind === 'return' && isPlainObject(action.value) && action.value.decision !== 'deny';
                    if (ctx.interception_point === 'pre_tool_call' && permits && isPlainObject(call) && typeof call.id === 'string' && typeof call.name === 'string')
                      start({ id: call.id, name: call.name, args: (call.args ?? {}) as JsonObject }).catch(() => undefined);
                    return action;
                  },
                };
          return inner.setup({ ...s, interceptors: s.interceptors.map(early), tools: (call) => start(call) });
        },
      };
    },
  };
}

/** §6.1 mutant: after a deny at a post_* point the host re-executes the action (and discards that outcome as well). */
function postDenyReexecutes(id: string, description: string, action: 'tool' | 'model'): Mutant {
  return {
    id,
    clause: '6.1',
    description,
    harness: () => {
      let tools: RunSetup['tools'] | undefined;
      let model: RunSetup['model'] | undefined;
      let lastRequest: ModelRequest | undefined;
      const retry = (p: Promise<unknown>) => void p.catch(() => undefined);
      const inner = createReferenceHarness({
        parts: {
          incorporateToolResult: (post) => {
            const call = post.context?.tool_call;
            if (action === 'tool' && !post.proceed && tools && isPlainObject(call) && typeof call.id === 'string' && typeof call.name === 'string')
              retry(tools({ id: call.id, name: call.name, args: (call.args ?? {}) as JsonObject }));
            return D.incorporateToolResult(post);
          },
          incorporateModelResponse: (post) => {
            if (action === 'model' && !post.proceed && model && lastRequest) retry(model(lastRequest));
            return D.incorporateModelResponse(post);
          },
        },
      });
      return {
        ...inner,
        setup: (s: RunSetup) => {
          tools = s.tools;
          model = s.model;
          lastRequest = undefined;
          return inner.setup({
            ...s,
            model: (request) => {
              lastRequest = request;
              return s.model(request);
            },
          });
        },
      };
    },
  };
}

/** §5.3 mutant: the evidence cap read as exclusive (exactly 10240 canonical bytes is rejected). */
function evidenceCapExclusive(value: unknown): ReturnType<HostParts['gateVerdict']> {
  if (isPlainObject(value) && isPlainObject(value.evidence)) {
    let size = 0;
    try {
      size = Buffer.byteLength(canonicalize(value.evidence), 'utf8');
    } catch {
      return D.gateVerdict(value);
    }
    if (size === EVIDENCE_MAX_BYTES) return { ok: false, reason: HOST_ERROR.verdict_invalid, detail: 'evidence at the cap (mutant)' };
  }
  return D.gateVerdict(value);
}

/** A mutant whose host reports its run differently from how it ran it (the records it writes, the outcome it states). */
function reported(id: string, clause: string, description: string, edit: (report: RunReport) => RunReport): Mutant {
  return {
    id,
    clause,
    description,
    harness: () => {
      const inner = createReferenceHarness();
      return { ...inner, run: async (): Promise<RunReport> => edit(await inner.run()) };
    },
  };
}

/** §6.1a mutant: a deny at agent_shutdown retracts the session's result (the run is reported blocked, its output withdrawn). */
function shutdownDenyRetractsOutput(): Mutant {
  return reported('shutdown-deny-retracts-output', '6.1a', 'a deny at agent_shutdown withdraws what the session already produced: the run is reported blocked and its output withheld', (report) => {
    const last = report.records[report.records.length - 1] as JsonObject | undefined;
    const denied = last?.interception_point === 'agent_shutdown' && isPlainObject(last.verdict) && last.verdict.decision === 'deny';
    return denied && report.outcome === 'completed' ? { ...report, outcome: 'blocked', final_output: null } : report;
  });
}

/** §7.2 mutant: parallel/strictest with a quorum — a single block among at least two allows is outvoted. */
async function strictestMajority(env: ComposeEnv): Promise<ComposeResult> {
  const r = await D.composeParallel(env);
  if (env.composition.profile !== 'parallel/strictest' || r.winner.decision !== 'deny' || r.resolvedBy !== undefined) return r;
  const blocks = r.slots.filter((x) => x.verdict.decision === 'deny').length;
  const allows = r.slots.filter((x) => x.verdict.decision === 'allow').length;
  if (blocks !== 1 || allows < 2) return r;
  return { ...r, winner: { decision: 'allow' }, decidedBy: null, context: env.context };
}

/** §10.3 mutant: the agent_shutdown record never reaches the report (the trail is flushed before the last emission). */
function shutdownRecordMissing(): Mutant {
  return reported('shutdown-record-missing', '10.3', 'the agent_shutdown emission produces no interception record (the trail is written before the session closes)', (report) =>
    withoutRecordsAt(report, 'agent_shutdown'),
  );
}

/** §5.2 mutant: applying `$target.name…` keeps only member `name` of an object target (its siblings are lost). */
function transformDropsSiblings(ctx: JsonObject, t: Parameters<HostParts['applyTransform']>[1]): ReturnType<HostParts['applyTransform']> {
  const r = D.applyTransform(ctx, t);
  const first = typeof t.path === 'string' ? /^\$(?:target|policy_target)(?:\.([A-Za-z0-9_-]+)|\["([A-Za-z0-9_-]+)"\])/.exec(t.path) : null;
  const name = first?.[1] ?? first?.[2];
  if (!r.ok || name === undefined || !isPlainObject(r.context.target) || !(name in r.context.target)) return r;
  const only: JsonObject = { [name]: r.context.target[name]! };
  return { ok: true, context: D.writeBackTarget(r.context, only) };
}

/** A record mutant: the §10.3 record leaves out one member. */
function recordWithout(member: keyof InterceptionRecord): HostPartsOverride {
  return recordEdit((r) => {
    const copy = { ...r };
    delete copy[member];
    return copy;
  });
}

/** A projection mutant: the recorded verdict leaves out one member of the combined verdict. */
function projectedWithout(member: 'evidence' | 'warnings' | 'result_labels'): HostPartsOverride {
  return {
    projectVerdict: (v, t) => {
      const p = D.projectVerdict(v, t);
      delete p[member];
      return p;
    },
  };
}
/** §10.2 mutant: every plain object of the wrapper's shape becomes the number it spells (what a duck-typed check did). */
function numbersFromLookalikes(v: Json): Json {
  try {
    return holdsLookalike(v, new Set()) ? rewriteLookalikes(v) : v;
  } catch {
    return v; // a value no JSON walk can read (a throwing getter): handed on as it is
  }
}

const isLookalike = (v: unknown): boolean => isPlainObject(v) && (v as { isLosslessNumber?: unknown }).isLosslessNumber === true && typeof (v as { value?: unknown }).value === 'string' && Object.keys(v).length === 2;

function holdsLookalike(v: unknown, seen: Set<unknown>): boolean {
  if (v === null || typeof v !== 'object' || seen.has(v)) return false;
  seen.add(v);
  if (isLookalike(v)) return true;
  return Array.isArray(v) ? v.some((x) => holdsLookalike(x, seen)) : isPlainObject(v) && Object.values(v).some((x) => holdsLookalike(x, seen));
}

function rewriteLookalikes(v: Json): Json {
  if (Array.isArray(v)) return v.map(rewriteLookalikes);
  if (!isPlainObject(v)) return v;
  if (isLookalike(v)) return new LosslessNumber((v as { value: string }).value) as unknown as Json;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rewriteLookalikes(x)])) as JsonObject;
}

/** A mutant of the reference host laid out as `layout` whose run setup (its model adapter) is altered. */
function laidOut(id: string, clause: string, description: string, layout: Partial<ConversationLayout>, alter: (s: RunSetup) => RunSetup): Mutant {
  return {
    id,
    clause,
    description,
    layout,
    harness: () => {
      const inner = createReferenceHarness({ layout });
      return { ...inner, setup: (s: RunSetup) => inner.setup(alter(s)) };
    },
  };
}

/** A HostParts mutant of the reference host laid out as `layout` (a defect only history a layout carries shows). */
function laidOutParts(id: string, clause: string, description: string, layout: Partial<ConversationLayout>, override: HostPartsOverride): Mutant {
  return { id, clause, description, layout, harness: () => createReferenceHarness({ parts: override, layout }) };
}

/**
 * §4.2 mutant: the model adapter keeps one role per input text, the role of the latest message holding it, and
 * sends every message with that text under that role (an earlier turn's `user` message becomes `system`).
 */
function rolesByText(s: RunSetup): RunSetup['model'] {
  const inputs = s.scenario.inputs ?? (s.scenario.input ? [s.scenario.input] : []);
  const texts = new Set(inputs.map((i) => JSON.stringify(i.content)));
  return (request) => {
    if (!Array.isArray(request.messages)) return s.model(request);
    const list = request.messages as JsonObject[];
    const roleOf = new Map<string, Json>();
    for (const m of list) if (m && typeof m === 'object' && texts.has(JSON.stringify(m.content))) roleOf.set(JSON.stringify(m.content), m.role ?? null);
    const messages = list.map((m) => (m && typeof m === 'object' && roleOf.has(JSON.stringify(m.content)) ? { ...m, role: roleOf.get(JSON.stringify(m.content))! } : m));
    return s.model({ ...request, messages } as typeof request);
  };
}
