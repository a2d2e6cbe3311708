// The generator: one random, valid vector in our grammar (GRAMMAR.md: published members and CTK extensions) per
// (seed, case index), restricted to the host's declared surface (space.ts). Every draw goes through the Rng,
// so the same seed and surface give the same case. The `expect` is a placeholder: the fuzzer compares the
// host with the oracle and never checks it; to-vector.ts fills a real one from the oracle's trace.
import { type InterceptionPoint, type Json, type JsonObject } from '../../core/types.js';
import { LosslessNumber } from '../json.js';
import { EVIDENCE_MAX_BYTES } from '../../core/index.js';
import { NON_JSON_VERDICT_KINDS } from '../../harness/contract.js';
import type { ApprovalRule, InterceptorRule, Vector } from '../vector.js';
import { caseRng, type Rng } from './rng.js';
import type { GenerationSpace } from './space.js';

export interface GenerateOptions {
  /** interceptor_timeout_ms / resolver_timeout_ms of a case that scripts a hang (small, so hangs cost little). */
  hangTimeoutMs: number;
}

export const DEFAULT_HANG_TIMEOUT_MS = 30;

/** The id of case `index` of the campaign `seed` (the seed and case travel in the id's slug). */
export function caseId(seed: string | number, index: number): string {
  return `AH-CTK-999-fuzz-s${String(seed).toLowerCase().replace(/[^a-z0-9]+/g, '-')}-c${index}`;
}

/** Case `index` of the campaign `seed`. */
export function generateCase(space: GenerationSpace, seed: string | number, index: number, options: GenerateOptions = { hangTimeoutMs: DEFAULT_HANG_TIMEOUT_MS }): Vector {
  const rng = caseRng(seed, index);
  return new CaseBuilder(rng, space, options).build(caseId(seed, index), `fuzz case ${index} of seed ${seed}`);
}

// ---------------------------------------------------------------------------------------------- pools

interface ToolTemplate {
  name: string;
  args: JsonObject[];
}

/**
 * Tools and the argument shapes the model asks for (values the transforms and matches below refer to; a
 * pre_tool_call transform writes a member of the first shape). Members of every JSON type (§4.2: args are any JSON
 * object): strings (the empty one too), integers and decimals, booleans, null, arrays, nested objects, and a plain
 * object shaped like the lossless number wrapper, which is an object and never the number it spells (§4.4, §10.2).
 */
const TOOLS: readonly ToolTemplate[] = [
  { name: 'lookup_order', args: [{ order: 'ord-417' }, { order: 'ord-9' }, { order: 'ord-9', express: true, note: null }, { order: 'ord-417', filter: { isLosslessNumber: true, value: '12' } }] },
  {
    name: 'file_refund',
    args: [{ order: 'ord-417', amount: 40 }, { order: 'ord-417', amount: 8400 }, { order: 'ord-417', amount: 12.5, items: [1, 'two', false, null] }, { order: 'ord-417', amount: 40, meta: { reason: 'damaged', refs: [], extra: {} } }],
  },
  { name: 'send_note', args: [{ to: 'ops', text: 'refund filed' }, { to: 'customer', text: 'hello' }, { to: 'ops', text: '', cc: [] }] },
];
const REASONS = ['probe:policy', 'probe:needs-human', 'probe:pii', 'probe:budget'];
const LABELS = ['lbl-pii', 'lbl-ledger-7', 'lbl-internal', 'lbl-a'];
const WARNINGS: JsonObject[] = [
  { reason: 'probe:warn-a', message: 'first warning' },
  { reason: 'probe:warn-b' },
  { message: 'a warning without a reason' },
  { reason: 'probe:warn-a', message: 'first warning' },
];
/** Over 256 UTF-8 bytes: ASCII, and multi-byte characters that straddle the cut (§10.3 truncation). */
const LONG_MESSAGES = ['x'.repeat(300), 'a' + '€'.repeat(90), 'é'.repeat(140), 'ab' + '😀'.repeat(70)];
const INPUTS: Json[] = ['please refund order ord-417', 'what is the status of ord-9?', { text: 'refund ord-417', account: 'acct-5' }];
/** §4.4: text holding a lone surrogate, outside the value domain whatever the identity provider (none included). */
const LONE_SURROGATE_INPUT = 'transfer from IBAN DE44-5001 \ud800 now';
const FINAL_ANSWERS: Json[] = ['Your refund has been filed.', 'Order ord-9 has shipped.', { text: 'done', ticket: 'T-88' }];
/** The text of a response that also calls tools, one per tool-call turn of a case (never repeated within it). */
const TOOL_TURN_TEXTS = ['let me check that', 'checking one more thing', 'and now the last step', 'nearly done here'];
/** Tool values of every JSON type (§4.2), the empty string, array and object, decimals, and a number-wrapper lookalike. */
const TOOL_RESULTS: Json[] = [
  'ok', { status: 'ok', ledger: 'LEDGER-ENTRY-77' }, { status: 'shipped', items: [1, 2, 3] }, 42, null, ['a', 'b'],
  true, false, '', [], {}, 12.5,
  { status: 'ok', rate: 0.1, total: -3.75, flags: [true, null], nested: { deep: { ok: true } } },
  { status: 'ok', count: { isLosslessNumber: true, value: '12' } },
];
/** Integers beyond ±(2^53−1): within 64 bits (int64_json), beyond them (bigint_json). */
const INT64_VALUES = ['9223372036854775807', '-9223372036854775808'];
const BIGINT_VALUES = ['123456789012345678901234567890', '-98765432109876543210987654321'];
const ROLES = ['user', 'system', 'external'];
const BAD_PATHS = ['$context.target', 'target.content', '$target.*', '$target[-1]', '$target["a b"]', '', '$targets.x'];
/** GRAMMAR.md §2: the values the in-process mock hands back that JSON cannot carry (§10.3 host projection failure). */
const UNPROJECTABLE = ['cycle', 'bigint', 'function', 'throwing_getter'];
const REDACTIONS = ['$target.order', '$target.content', '$target[0].content', '$target.amount', '$target.text'];

/** A JSON object that is not a number wrapper (an object `return` or `content` an `unprojectable` may extend). */
function isObjectValue(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof LosslessNumber);
}

/** A value nested `depth` objects deep (§12.3 bounds). */
function deepValue(depth: number): Json {
  let v: Json = 'bottom';
  for (let i = 0; i < depth; i++) v = { d: v };
  return v;
}

/** Does an interceptor or a resolution transform at post_model_call? */
function transformsAtPostModel(scripts: InterceptorRule[][], approval: ApprovalRule[]): boolean {
  const isTransform = (v: unknown) => v !== null && typeof v === 'object' && (v as JsonObject).decision === 'transform';
  return scripts.some((rules) => rules.some((r) => r.at === 'post_model_call' && isTransform(r.return))) || approval.some((a) => 'verdict' in a.resolve && isTransform(a.resolve.verdict));
}

/**
 * READINGS.md (c) "the basis of an incremental segment": after a transform, whether a later segment is evaluated
 * over the raw or the verdicted prefix (and so what is released, persisted, or failed closed) is open. A case that
 * transforms at post_model_call streams each response as one segment, so no reading decides the outcome.
 */
function oneSegmentEach(scenario: JsonObject): void {
  for (const m of scenario.model_script as Array<{ respond: JsonObject }>) {
    const stream = m.respond.stream;
    if (Array.isArray(stream) && stream.length > 1) m.respond.stream = [stream.join('')];
  }
}

/** The bounded wait of a generated rendezvous: long enough for calls in flight together, short for a serial host. */
const RENDEZVOUS_WITHIN_MS = 400;

/**
 * §12.2, §13.1 (GRAMMAR.md §2 `rendezvous`): a host declaring parallel_tool_calls is observed to run one response's
 * tool calls at once. Every clause of every tool waits for the batch; only where each tool-calling response asks for
 * the same number of calls and nothing can deny one of them (no rule at pre_tool_call), so the parties counted are
 * the calls a conformant host invokes together.
 */
function scriptRendezvous(scenario: JsonObject, scripts: InterceptorRule[][]): void {
  const counts = (scenario.model_script as Array<{ respond: JsonObject }>).map((m) => (m.respond.tool_calls as Json[]).length).filter((n) => n > 0);
  const parties = counts[0];
  if (parties === undefined || parties < 2 || counts.some((n) => n !== parties)) return;
  if (scripts.some((rules) => rules.some((rule) => rule.at === 'pre_tool_call'))) return;
  for (const tool of scenario.tools as JsonObject[]) for (const b of tool.behavior as JsonObject[]) b.rendezvous = { group: 'batch', parties, within_ms: RENDEZVOUS_WITHIN_MS };
}

// ---------------------------------------------------------------------------------------------- builder

interface Turn {
  /** Responses carrying tool calls, then the final answer. */
  responses: JsonObject[];
}

class CaseBuilder {
  private toolTurnCounter = 0;
  private toolCallCounter = 0;
  private transformCounter = 0;
  private readonly tools: ToolTemplate[];
  private readonly points: InterceptionPoint[];
  private hangs = { interceptor: false, resolver: false };
  /** Hangs are rare and at most one per case: each costs a timeout, and throughput matters. */
  private hangAllowed: boolean;
  /** Most rules of a case aim at one point, so that interceptors meet at the same emissions (composition, §7). */
  private readonly hotPoint: InterceptionPoint;
  /**
   * A focused case composes at its hot point: every interceptor answers there first (mostly liftable denies and
   * transforms) and the resolver mostly lifts, so profiles, knobs and approval substitution meet (§7.4–§7.6).
   */
  private readonly focus: boolean;
  private liftable = false;
  /** Does this case script streamed responses (only where the surface declares a discipline, §12.1)? */
  private readonly streams: boolean;
  /** Does this case script values the host cannot project (only where projection_faults is declared, §10.3)? */
  private readonly unprojectable: boolean;
  /** Does this case script a native failure of the mock model, a stream or a tool (only where mock_faults is declared)? */
  private readonly mockFault: boolean;
  /** Does this case script an interceptor returning a verdict JSON cannot carry (only where non_json_verdicts is declared)? */
  private readonly nonJsonVerdict: boolean;
  /** Has a tool-calling response of this case had empty text (at most one: a framework may fold repeated text)? */
  private emptyToolText = false;
  /** Does a later input repeat an earlier turn's answer (labels kept by message, not by text, §5.4)? */
  private echo = false;
  /** The listed-only capabilities the drawn numbers need (int64_json, bigint_json). */
  private readonly numberCaps = new Set<string>();
  /** Every content a post_model_call of a streamed response can carry: the assembled prefixes (match targets). */
  private readonly streamPrefixes: string[] = [];
  /** The paths interceptor transforms write, per point. */
  private readonly transformedPaths = new Map<InterceptionPoint, Set<string>>();

  constructor(
    private readonly rng: Rng,
    private readonly space: GenerationSpace,
    private readonly options: GenerateOptions,
  ) {
    this.hangAllowed = space.hangFaults && rng.chance(0.05);
    this.tools = space.tools ? rng.subset(TOOLS, rng.int(1, TOOLS.length)) : [];
    this.points = ['agent_startup', 'input', 'pre_model_call', 'post_model_call', ...(this.tools.length > 0 ? (['pre_tool_call', 'post_tool_call'] as const) : []), 'output', 'agent_shutdown'];
    this.focus = rng.chance(0.35);
    this.hotPoint = rng.weighted(this.points.map((p) => [p, p === 'agent_startup' || p === 'agent_shutdown' ? 1 : 4] as const));
    // Drawn last, and only where declared: a surface declaring neither draws nothing here.
    this.streams = space.streaming !== 'none' && rng.chance(space.streaming === 'incremental' ? 0.5 : 0.3);
    this.unprojectable = space.projectionFaults && rng.chance(0.1);
    // Drawn after everything else, and only where declared: a surface without mock_faults draws the same cases as before.
    this.mockFault = space.mockFaults && rng.chance(0.1);
    this.nonJsonVerdict = space.nonJsonVerdicts && rng.chance(0.08);
  }

  build(id: string, title: string): Vector {
    const r = this.rng;
    const v: Record<string, unknown> = { id, title, spec_clause: '13.2', part: 'fuzz' };
    const caps = ['model_calls'];

    // --- composition, mode, provider
    const ps = r.pick(this.space.profiles);
    const composition: JsonObject = { profile: ps.profile };
    for (const k of ps.knobs) {
      // A focused case folds on after an approval (resume) more often: that is where unions and later consults meet.
      if (this.focus && k.knob === 'on_approval' && k.values.includes('resume') && r.chance(0.5)) {
        composition[k.knob] = 'resume';
        continue;
      }
      if (k.unsetOk && r.chance(0.3)) continue; // unset: the §7.2 default applies
      composition[k.knob] = r.pick(k.values);
    }
    const mode = r.weighted(this.space.modes.map((m) => [m, m === 'enforce' ? 3 : 1] as const));
    const provider = r.weighted(this.space.providers.map((p) => [p, p === 'jcs-sha256' ? 16 : p === null ? 3 : 1] as const));

    // --- scenario
    const scenario = this.scenario(caps);

    // --- interceptors
    const count = this.focus ? r.weighted([[2, 5], [3, 3], [4, 2]] as const) : r.weighted([[0, 1], [1, 8], [2, 6], [3, 3], [4, 2]] as const);
    const scripts: InterceptorRule[][] = [];
    for (let i = 0; i < count; i++) scripts.push(this.ruleList(scenario));
    // §5.4: an answer labelled at output, repeated as a later input: the labels belong to the message, not its text.
    if (this.echo && r.chance(0.6)) {
      const label: InterceptorRule = { at: 'output', return: { decision: 'allow', result_labels: [r.pick(LABELS)] } };
      if (scripts.length === 0) scripts.push([label]);
      else scripts[0]!.unshift(label);
    }
    if (this.nonJsonVerdict && scripts.length > 0) {
      this.scriptNonJsonVerdict(scripts);
      caps.push('non_json_verdicts');
    }

    // --- approval seam
    const knobAsksSeam = Object.entries(composition).some(([k, val]) => k !== 'profile' && val === 'approval') || composition.on_approval === 'resume';
    const approval = r.chance(this.focus ? 0.85 : this.liftable || knobAsksSeam ? 0.7 : 0.15) ? this.approvalScript() : [];

    if (composition.profile !== 'sequential/first_deny' || Object.keys(composition).length > 1 || r.chance(0.5)) v.composition = composition;
    if (mode !== 'enforce' || r.chance(0.2)) v.mode = mode;
    if (provider !== 'jcs-sha256' || r.chance(0.1)) v.identity_provider = provider;
    if (approval.length > 0 && r.chance(0.2)) v.redact_for_approval = r.subset(REDACTIONS, r.int(1, 2));
    v.capabilities = caps;
    v.scenario = scenario;
    if (scripts.length === 1 && r.chance(0.5)) v.interceptor_script = scripts[0];
    else v.interceptor_scripts = scripts;
    if (approval.length > 0) v.approval_script = approval;
    if (this.space.streaming === 'incremental' && transformsAtPostModel(scripts, approval)) oneSegmentEach(scenario);
    if (scenario.parallel_tools === true && r.chance(0.5)) scriptRendezvous(scenario, scripts);
    if (this.hangs.interceptor) v.interceptor_timeout_ms = this.options.hangTimeoutMs;
    if (this.hangs.resolver) v.resolver_timeout_ms = this.options.hangTimeoutMs;
    v.expect = { interceptions: [], sequence_strict: false, run_outcome: 'completed' };
    return v as unknown as Vector;
  }

  // ------------------------------------------------------------------------------------------- scenario

  private scenario(caps: string[]): JsonObject {
    const r = this.rng;
    const turns = this.space.multiTurn && r.chance(0.25) ? r.int(2, 3) : 1;
    const modelCalls = r.int(turns, 4); // 1–4 model calls, one final answer per input at least
    const toolRounds = this.tools.length > 0 ? modelCalls - turns : 0;
    const perTurn: Turn[] = Array.from({ length: turns }, () => ({ responses: [] }));
    for (let i = 0; i < toolRounds; i++) perTurn[r.int(0, turns - 1)]!.responses.push(this.toolCallResponse());
    for (const t of perTurn) t.responses.push(this.finalAnswer());

    const scenario: JsonObject = {};
    const inputs = this.space.structuredInput ? INPUTS : INPUTS.filter((i) => typeof i === 'string');
    const input = () => ({ content: r.chance(0.02) ? LONE_SURROGATE_INPUT : r.pick(inputs), role: r.weighted([['user', 6], ['system', 1], ['external', 1]] as const) });
    if (turns > 1) {
      const inputsOf = Array.from({ length: turns }, input);
      scenario.inputs = inputsOf;
      caps.push('multi_turn');
      // §5.4: a later input whose text is an earlier turn's answer (equal texts, distinct messages).
      if (r.chance(0.35)) {
        const later = r.int(1, turns - 1);
        const answer = perTurn[r.int(0, later - 1)]!.responses.at(-1)!.content;
        if ((typeof answer === 'string' && answer !== '') || (isObjectValue(answer) && this.space.structuredInput)) {
          inputsOf[later]!.content = structuredClone(answer);
          this.echo = true;
        }
      }
    } else scenario.input = input();
    if (this.tools.length > 0) {
      scenario.tools = this.tools.map((t) => this.toolDefinition(t));
      caps.push('tool_calls');
    }
    if (this.streams) for (const t of perTurn) for (const resp of t.responses) this.maybeStream(resp);
    if (this.streams && perTurn.some((t) => t.responses.some((resp) => resp.stream !== undefined))) {
      // §12.1: an incremental host's vectors list incremental_output; a buffering host's are gated by streaming.
      caps.push(this.space.streaming === 'incremental' ? 'incremental_output' : 'streaming');
    }
    if (this.mockFault) this.scriptFault(perTurn.flatMap((t) => t.responses), scenario.tools as JsonObject[] | undefined);
    if (perTurn.some((t) => t.responses.some((resp) => resp.fault !== undefined)) || (scenario.tools as JsonObject[] | undefined)?.some((tool) => (tool.behavior as JsonObject[]).some((b) => b.fault !== undefined))) caps.push('mock_faults');
    if (perTurn.some((t) => t.responses.some((resp) => resp.unprojectable !== undefined)) || (scenario.tools as JsonObject[] | undefined)?.some((tool) => (tool.behavior as JsonObject[]).some((b) => b.unprojectable !== undefined)))
      caps.push('projection_faults');
    // GRAMMAR.md §1.1: a failing tool's error value other than a string or an object needs tool_error_values.
    if ((scenario.tools as JsonObject[] | undefined)?.some((tool) => (tool.behavior as JsonObject[]).some((b) => b.is_error === true && typeof b.return !== 'string' && !isObjectValue(b.return)))) caps.push('tool_error_values');
    for (const c of this.numberCaps) caps.push(c);
    scenario.model_script = perTurn.flatMap((t) => t.responses.map((respond) => ({ respond })));
    const multiCall = perTurn.some((t) => t.responses.some((resp) => (resp.tool_calls as Json[]).length > 1));
    if (this.space.parallelTools && multiCall && r.chance(0.4)) {
      scenario.parallel_tools = true;
      caps.push('parallel_tool_calls');
    }
    return scenario;
  }

  private toolCallResponse(): JsonObject {
    const r = this.rng;
    const n = r.weighted([[1, 6], [2, 3], [3, 1]] as const);
    const calls: JsonObject[] = [];
    for (let i = 0; i < n; i++) {
      const tool = r.pick(this.tools);
      const args = structuredClone(r.pick(tool.args));
      // §4.4: an integer beyond ±(2^53−1) in the args, only where the host declares it carries one unchanged.
      const big = this.bigNumber();
      if (big !== undefined) args.account = big;
      calls.push({ id: `call-${++this.toolCallCounter}`, name: tool.name, args });
    }
    // Each tool-call turn of a case says something of its own: a framework may fold repeated assistant text (Mastra
    // does), which is its conversation's business, not a divergence.
    const text = TOOL_TURN_TEXTS[this.toolTurnCounter++ % TOOL_TURN_TEXTS.length]!;
    // Text, no text (null), or empty text (§4.2: a string, possibly empty), the last at most once per case.
    const empty = !this.emptyToolText && r.chance(0.1);
    if (empty) this.emptyToolText = true;
    // null_answer=empty_text: the host's model interface is text, where "" is its null (HARNESS.md): drawn as null.
    return { content: empty ? (this.space.emptyText ? null : '') : r.chance(this.streams ? 0.3 : 0.7) ? null : text, tool_calls: calls, finish_reason: 'tool_calls' };
  }

  private finalAnswer(): JsonObject {
    // §4.2: an answer may be null or the empty string (no text), and still reaches output (§3.1).
    const kind = this.rng.weighted([['text', 88], ['null', 6], ['empty', 6]] as const);
    if (kind !== 'text') return { content: kind === 'null' ? null : '', tool_calls: [], finish_reason: 'stop' };
    const answers = this.space.structuredContent ? FINAL_ANSWERS : FINAL_ANSWERS.filter((a) => typeof a === 'string');
    const content = structuredClone(this.rng.pick(answers));
    const answer: JsonObject = { content, tool_calls: [], finish_reason: 'stop' };
    // §10.3 host projection failure at post_model_call: an object answer with a member JSON cannot carry.
    if (this.unprojectable && typeof content === 'object' && content !== null && this.rng.chance(0.5)) answer.unprojectable = this.rng.pick(UNPROJECTABLE);
    return answer;
  }

  /**
   * §12.1: a text response delivered as a stream of 1–3 chunks that concatenate to its content (GRAMMAR.md §9.1);
   * sometimes the stream dies early (`stream_truncated`: the chunks are a prefix, no finish_reason arrives).
   */
  private maybeStream(resp: JsonObject): void {
    const r = this.rng;
    if (typeof resp.content !== 'string' || !r.chance(0.7)) return;
    if (resp.content === '') {
      // An empty answer streams as one empty chunk (a buffering host assembles it, §12.1); never cut short.
      if (this.space.streaming === 'buffered' && (resp.tool_calls as Json[]).length === 0) resp.stream = [''];
      return;
    }
    const words = resp.content.split(/(?<= )/); // words keep their trailing space: chunks concatenate back exactly
    const n = r.int(1, Math.min(3, words.length));
    const cuts = r.subset(Array.from({ length: words.length - 1 }, (_, i) => i + 1), n - 1).sort((a, b) => a - b);
    const chunks = [0, ...cuts].map((start, i) => words.slice(start, [...cuts, words.length][i]).join(''));
    if (r.chance(0.2)) {
      // The chunks delivered before the stream died: a proper prefix of the content.
      resp.stream = chunks.length > 1 ? chunks.slice(0, r.int(1, chunks.length - 1)) : [chunks[0]!.slice(0, Math.max(1, Math.floor(chunks[0]!.length / 2)))];
      resp.stream_truncated = true;
    } else resp.stream = chunks;
    let prefix = '';
    for (const c of resp.stream as string[]) this.streamPrefixes.push((prefix += c));
  }

  /**
   * mock_faults (GRAMMAR.md `fault`): one native failure — a model call that fails (§12.1 an errored call), a stream
   * that fails after some chunks, or a tool that throws. Not together with a truncation or an unprojectable value.
   */
  private scriptFault(responses: JsonObject[], tools: JsonObject[] | undefined): void {
    const r = this.rng;
    const behaviors = (tools ?? []).flatMap((t) => t.behavior as JsonObject[]);
    if (behaviors.length > 0 && r.chance(0.5)) {
      const b = r.pick(behaviors);
      b.fault = 'raise';
      delete b.is_error;
      delete b.unprojectable;
      return;
    }
    // A truncated stream's chunks are only a prefix of its content: such a response keeps its truncation instead.
    const whole = responses.filter((x) => x.stream_truncated !== true);
    if (whole.length === 0) return;
    const resp = r.pick(whole);
    resp.fault = 'raise';
    delete resp.unprojectable;
    // Before any chunk, or (absent) after all of them: a later step may merge the chunks into one segment.
    if (Array.isArray(resp.stream) && r.chance(0.5)) resp.fault_after = 0;
  }

  private toolDefinition(t: ToolTemplate): JsonObject {
    const r = this.rng;
    const behavior: JsonObject[] = [];
    if (r.chance(0.4)) behavior.push({ when_args: structuredClone(r.pick(t.args)), return: this.toolResult(), ...(r.chance(0.2) ? { is_error: true } : {}) });
    behavior.push({ return: this.toolResult(), ...(r.chance(0.15) ? { is_error: true } : {}) });
    // §10.3 host projection failure at post_tool_call: an object result with a member JSON cannot carry.
    if (this.unprojectable && r.chance(0.5)) {
      const b = r.pick(behavior);
      if (b.return === null || typeof b.return !== 'object' || Array.isArray(b.return) || b.return instanceof LosslessNumber) b.return = { status: 'ok', ledger: 'LEDGER-ENTRY-77' };
      b.unprojectable = r.pick(UNPROJECTABLE);
      // A failing tool's unprojectable value too, as often as a result's: an adapter that stringifies the error it
      // cannot project turns the §10.3 host projection failure into an ordinary tool error.
      if (r.chance(0.4)) b.is_error = true;
    }
    // A host without tool_error_values fails a tool with a message or an object only (GRAMMAR.md §1.1).
    if (!this.space.toolErrorValues) for (const b of behavior) if (b.is_error === true && typeof b.return !== 'string' && !isObjectValue(b.return)) b.return = 'tool failed: try again later';
    return { name: t.name, behavior };
  }

  /** An integer beyond ±(2^53−1) the host declares it carries unchanged (int64_json, bigint_json), rarely; else undefined. */
  private bigNumber(): Json | undefined {
    const r = this.rng;
    if (this.space.int64Json && r.chance(0.04)) {
      this.numberCaps.add('int64_json');
      return new LosslessNumber(r.pick(INT64_VALUES)) as unknown as Json;
    }
    if (this.space.bigintJson && r.chance(0.04)) {
      this.numberCaps.add('bigint_json');
      return new LosslessNumber(r.pick(BIGINT_VALUES)) as unknown as Json;
    }
    return undefined;
  }

  private toolResult(): Json {
    const r = this.rng;
    const big = this.bigNumber();
    if (big !== undefined) return { status: 'ok', account: big };
    if (r.chance(0.03)) return { status: 'ok', id: new LosslessNumber('9007199254740993') as unknown as Json }; // beyond ±(2^53−1), §10.2
    // §4.4: a lone surrogate under a payload member name (context_invalid; the record names neither, §6.3).
    if (r.chance(0.02)) return { status: 'ok', 'memo-DE44': 'IBAN DE44-5001 \ud800' };
    if (this.space.deepValueDepth !== undefined && r.chance(0.03)) return deepValue(this.space.deepValueDepth); // §12.3
    return structuredClone(r.pick(TOOL_RESULTS));
  }

  // ---------------------------------------------------------------------------------------- interceptors

  private ruleList(scenario: JsonObject): InterceptorRule[] {
    const r = this.rng;
    const n = r.weighted([[0, 1], [1, 5], [2, 4], [3, 2], [4, 1]] as const);
    const rules: InterceptorRule[] = [];
    if (this.focus) rules.push({ at: this.hotPoint, return: this.focusVerdict(this.hotPoint) });
    for (let i = 0; i < n; i++) {
      const at = r.chance(0.5) ? this.hotPoint : r.weighted(this.points.map((p) => [p, p === 'agent_startup' || p === 'agent_shutdown' ? 1 : 3] as const));
      const rule: InterceptorRule = { at };
      if (r.chance(0.25)) {
        const match = this.match(at, scenario);
        if (match) rule.match = match;
      }
      if (this.focus && at !== this.hotPoint && this.rng.chance(0.7)) {
        // Mostly, a focused case's rules elsewhere permit, so that the emissions reach its hot point.
        rule.return = this.rng.chance(0.6) ? this.decorate({ decision: 'allow' }, true) : this.decorate({ decision: 'transform', transform: this.noteTransform(at, this.transform(at, false)) }, true);
        rules.push(rule);
        continue;
      }
      const fault = this.fault();
      if (fault) rule.fault = fault;
      else rule.return = this.verdict(at);
      rules.push(rule);
    }
    return rules;
  }

  private fault(): InterceptorRule['fault'] | undefined {
    const r = this.rng;
    const f = r.weighted([
      [undefined, 86],
      ['raise', 5],
      ['mutate', 5],
      ['malformed_verdict', 2],
      ['hang', this.hangAllowed && !this.hangs.interceptor && !this.hangs.resolver ? 12 : 0],
    ] as const);
    if (f === 'hang') this.hangs.interceptor = true;
    return f;
  }

  /** §3 match: dotted paths into the context that hold for some contexts of this point and not others. */
  private match(at: InterceptionPoint, scenario: JsonObject): JsonObject | undefined {
    const r = this.rng;
    switch (at) {
      case 'input':
        return { 'input.role': r.pick(ROLES) };
      case 'pre_model_call':
        return r.chance(0.5) ? { 'messages[0].role': 'user' } : { 'messages[1].role': 'tool' };
      case 'post_model_call':
        // A streamed response: the content one of its emissions carries (an incremental host's segment prefix).
        if (this.streamPrefixes.length > 0 && r.chance(0.5)) return { 'response.content': r.pick(this.streamPrefixes) };
        return { 'response.finish_reason': r.pick(['stop', 'tool_calls']) };
      case 'pre_tool_call':
      case 'post_tool_call': {
        const tool = r.pick(this.tools);
        if (at === 'post_tool_call' && r.chance(0.4)) return { 'tool_result.is_error': r.chance(0.5) };
        if (r.chance(0.5)) return { 'tool_call.name': tool.name };
        const [k, val] = r.pick(Object.entries(r.pick(tool.args)));
        return { [`tool_call.args.${k}`]: val };
      }
      case 'output':
        return { 'output.content': r.pick(FINAL_ANSWERS) };
      case 'agent_shutdown':
        return { 'summary.reason': r.pick(['completed', 'error']) };
      default:
        return scenario.tools ? { 'agent_init.tools_registered[0]': r.pick(this.tools).name } : undefined;
    }
  }

  /** A focused case's answer at its hot point: what composition and the approval seam act on. */
  private focusVerdict(at: InterceptionPoint): Json {
    const r = this.rng;
    const kind = r.weighted([['liftable', 35], ['transform', 30], ['deny', 10], ['allow', 25]] as const);
    if (kind === 'liftable') this.liftable = true;
    if (kind === 'liftable') return this.decorate({ decision: 'deny', reason: r.pick(REASONS), approval: {} }, false);
    if (kind === 'transform') return this.decorate({ decision: 'transform', transform: this.noteTransform(at, this.transform(at, false)) }, true);
    if (kind === 'deny') return this.decorate({ decision: 'deny', reason: r.pick(REASONS) }, false);
    return this.decorate({ decision: 'allow' }, true);
  }

  /** A verdict (§5) to return at `at`: valid or deliberately invalid, with decorations. */
  private verdict(at: InterceptionPoint): Json {
    const r = this.rng;
    const kind = r.weighted([
      ['allow', 20],
      ['deny', 18],
      ['liftable', 15],
      ['transform', 22],
      ['invalid', 9],
      ['raw', this.space.rawReturns ? 3 : 0],
    ] as const);
    switch (kind) {
      case 'allow':
        return this.decorate({ decision: 'allow' }, true);
      case 'deny':
        return this.decorate({ decision: 'deny', reason: r.pick(REASONS) }, false);
      case 'liftable':
        this.liftable = true;
        return this.decorate({ decision: 'deny', reason: r.pick(REASONS), approval: r.chance(0.7) ? {} : { ticket: 'T-1', approver_group: 'finance' } }, false);
      case 'transform':
        return this.decorate({ decision: 'transform', transform: this.noteTransform(at, this.transform(at)) }, true);
      case 'invalid':
        return this.invalidVerdict(at);
      case 'raw':
        return r.pick<Json>(['allow', 7, ['allow'], null, true]);
    }
  }

  /** Optional members: reason, message (sometimes over 256 bytes), warnings, result_labels, evidence. */
  private decorate(v: JsonObject, permit: boolean): JsonObject {
    const r = this.rng;
    const more = this.focus ? 2 : 1; // focused cases exercise the §7.3 unions
    if (permit && r.chance(0.3)) v.reason = r.pick(REASONS);
    if (r.chance(0.3)) v.message = r.chance(0.35) ? r.pick(LONG_MESSAGES) : 'scripted message';
    if (r.chance(0.25 * more)) {
      const ws = r.subset(WARNINGS, r.int(1, 2)).map((w) => structuredClone(w));
      if (r.chance(0.2)) ws.push({ reason: 'probe:long', message: r.pick(LONG_MESSAGES) });
      v.warnings = ws;
    }
    if (r.chance((permit ? 0.3 : 0.15) * more)) v.result_labels = r.subset(LABELS, r.int(1, 2));
    if (r.chance(0.1)) {
      // §5.3: evidence of exactly the cap's 10240 canonical bytes is valid ({"artefact":"…"}: 15 bytes around the text).
      v.evidence = r.chance(0.08) ? { artefact: 'e'.repeat(EVIDENCE_MAX_BYTES - 15) } : { artefact: 'ev-17', verification_pointers: { ticket: 'https://example.invalid/tickets/17' } };
    }
    return v;
  }

  /**
   * §5.2: a path valid for the point's target (its value keeps the point's shape), an invalid one, or one
   * outside the grammar (`mayFail` false: valid paths only).
   */
  private transform(at: InterceptionPoint, mayFail = true): JsonObject {
    const r = this.rng;
    const root = r.chance(0.1) ? '$policy_target' : '$target';
    const bad = mayFail && r.chance(0.25);
    const n = ++this.transformCounter; // distinct values, so two transforms never coincide by accident
    let path: string;
    let value: Json | undefined;
    let nullOk = false; // may the value be left out (≡ null, §5.2) without breaking the point's shape?
    if (mayFail && r.chance(0.08)) {
      path = r.pick(BAD_PATHS);
      value = 'x';
    } else {
      switch (at) {
        case 'input':
          if (bad) [path, value] = [r.pick([`${root}.missing`, `${root}.content.deeper`, `${root}[0]`]), 'x'];
          else [path, value] = r.chance(0.8) ? [`${root}.content`, `rewritten input ${n}`] : [`${root}.role`, r.pick(ROLES)];
          break;
        case 'pre_model_call':
          // A whole new message list (another length, other roles) only for a host declaring message_list_transforms.
          [path, value] = bad ? [r.pick([`${root}[9].content`, `${root}.messages`]), 'x'] : r.chance(0.7) || !this.space.messageListTransforms ? [`${root}[0].content`, `rewritten prompt ${n}`] : [root, [{ role: 'user', content: `replaced conversation ${n}` }]];
          break;
        case 'post_model_call':
          if (bad) [path, value] = [r.pick([`${root}.tool_calls[7]`, `${root}.missing.x`]), 'x'];
          else {
            [path, value] = r.weighted([
              [[`${root}.content`, `rewritten answer ${n}`], 3],
              [[`${root}.finish_reason`, 'stop'], 1],
              [[`${root}.tool_calls[0].args`, { order: `ord-${n}` }], this.tools.length > 0 ? 1 : 0],
              [[`${root}.tool_calls`, []], this.tools.length > 0 ? 1 : 0],
            ] as const) as [string, Json];
            nullOk = path.endsWith('.content');
          }
          break;
        case 'pre_tool_call': {
          const tool = r.pick(this.tools);
          const key = r.pick(Object.keys(tool.args[0]!));
          [path, value] = bad ? [r.pick([`${root}.nope`, `${root}[0]`, `${root}.${key}.deeper`]), 'x'] : r.chance(0.75) ? [`${root}.${key}`, `rewritten-arg-${n}`] : [root, { order: `ord-${n}`, amount: n }];
          nullOk = !bad && path !== root;
          break;
        }
        case 'post_tool_call':
          [path, value] = bad ? [r.pick([`${root}.nope.deeper`, `${root}[3]`]), 'x'] : r.chance(0.6) ? [root, { redacted: n }] : [`${root}.status`, `masked-${n}`];
          nullOk = !bad;
          break;
        case 'output':
          // An object answer (§4.2) only for a host whose answers can be objects (structured_model_content).
          [path, value] = bad ? [`${root}.missing`, 'x'] : r.chance(0.8) || !this.space.structuredContent ? [`${root}.content`, `rewritten output ${n}`] : [root, { content: { text: `replaced output ${n}` } }];
          break;
        default: // agent_startup / agent_shutdown: a transform is forbidden whatever the path (§4.3)
          [path, value] = [r.pick([`${root}.tools_registered`, `${root}.reason`, root]), ['x']];
          nullOk = true;
      }
    }
    const t: JsonObject = { path };
    if (!(nullOk || bad) || !r.chance(0.15)) t.value = value ?? null;
    return t;
  }

  /** Remembers the paths interceptors transform at each point (so a resolver's transform can aim elsewhere). */
  private noteTransform(at: InterceptionPoint, t: JsonObject): JsonObject {
    const paths = this.transformedPaths.get(at) ?? new Set<string>();
    paths.add(String(t.path));
    this.transformedPaths.set(at, paths);
    return t;
  }

  /**
   * A resolver's transform (§7.4, §7.6): preferably on a path no interceptor transforms at that point, so that
   * whether it lands on the folded or on the input context shows (a few draws, then whatever came).
   */
  private resolverTransform(at: InterceptionPoint): JsonObject {
    const used = this.transformedPaths.get(at);
    let t = this.transform(at, false);
    for (let i = 0; i < 3 && used?.has(String(t.path)); i++) t = this.transform(at, false);
    return t;
  }

  /** A value that fails the §5 gate (or the §5.3 cap). */
  private invalidVerdict(at: InterceptionPoint): Json {
    const r = this.rng;
    return r.pick<() => Json>([
      () => ({ decision: 'maybe' }),
      () => ({ reason: 'probe:no-decision' }),
      () => ({ decision: 'deny', reason: 'host_error:interceptor_failed' }),
      () => ({ decision: 'allow', approval: {} }),
      () => ({ decision: 'transform', transform: this.transform(at), approval: {} }),
      () => ({ decision: 'allow', transform: { path: '$target', value: 1 } }),
      () => ({ decision: 'transform' }),
      () => ({ decision: 'allow', warnings: 'careful' }),
      () => ({ decision: 'allow', warnings: ['careful'] }),
      () => ({ decision: 'allow', evidence: 'ev-1' }),
      () => ({ decision: 'allow', result_labels: [7] }),
      () => ({ decision: 'allow', result_labels: 'lbl-a' }),
      () => ({ decision: 'deny', reason: 'probe:big', evidence: { artefact: 'y'.repeat(10_300) } }), // over the §5.3 cap
      () => ({ decision: 'allow', evidence: { artefact: 'y'.repeat(EVIDENCE_MAX_BYTES - 14) } }), // one byte over it
    ])();
  }

  /**
   * non_json_verdicts (GRAMMAR.md §3 `unprojectable`): one interceptor answers a point first with a valid verdict
   * holding a value JSON cannot carry; the host must fail it as host_error:interceptor_failed (§11).
   */
  private scriptNonJsonVerdict(scripts: InterceptorRule[][]): void {
    const r = this.rng;
    const at = r.chance(0.6) ? this.hotPoint : r.pick(this.points);
    const kind = r.weighted([['allow', 3], ['deny', 1], ['liftable', at === 'agent_shutdown' ? 0 : 1]] as const);
    const verdict: JsonObject = kind === 'allow' ? { decision: 'allow' } : { decision: 'deny', reason: r.pick(REASONS), ...(kind === 'liftable' ? { approval: {} } : {}) };
    r.pick(scripts).unshift({ at, return: this.decorate(verdict, kind === 'allow'), unprojectable: r.pick(NON_JSON_VERDICT_KINDS) });
  }

  // -------------------------------------------------------------------------------------- approval seam

  private approvalScript(): ApprovalRule[] {
    const r = this.rng;
    const n = r.weighted([[1, 3], [2, 2], [3, 1]] as const);
    const rules: ApprovalRule[] = [];
    for (let i = 0; i < n; i++) {
      const at = (this.focus && i === 0) || i < n - 1 || r.chance(0.3) ? ((this.focus || r.chance(0.6)) && this.hotPoint !== 'agent_shutdown' ? this.hotPoint : r.pick(this.points.filter((p) => p !== 'agent_shutdown'))) : undefined;
      const rule: ApprovalRule = { resolve: this.resolution(at) };
      if (at !== undefined) rule.match = { interception_point: at };
      rules.push(rule);
    }
    return rules;
  }

  /** A resolution; a transforming one only where the rule names its point (the path must fit that target). */
  private resolution(at: InterceptionPoint | undefined): ApprovalRule['resolve'] {
    const r = this.rng;
    const lift = this.focus ? 3 : 1;
    const kind = r.weighted([
      ['approve', 30 * lift],
      ['approve-transform', at !== undefined ? 8 * lift * lift : 0],
      ['reject', 15],
      ['unresolved', 8],
      ['invalid', 12],
      ['mismatch', 8],
      ['recomputed', 5],
      ['raise', 5],
      ['hang', this.hangAllowed && !this.hangs.interceptor && !this.hangs.resolver ? 20 : 0],
    ] as const);
    switch (kind) {
      case 'approve':
        return { outcome: 'approve', verdict: this.decorate({ decision: 'allow' }, true) };
      case 'approve-transform':
        return { outcome: 'approve', verdict: { decision: 'transform', transform: this.resolverTransform(at!) } };
      case 'reject':
        return { outcome: 'reject', verdict: this.decorate({ decision: 'deny', reason: 'probe:rejected' }, false) };
      case 'unresolved':
        return { outcome: 'unresolved' };
      case 'invalid':
        return r.pick<() => ApprovalRule['resolve']>([
          () => ({ outcome: 'approve', verdict: { decision: 'deny', reason: 'probe:x' } }),
          () => ({ outcome: 'reject', verdict: { decision: 'allow' } }),
          () => ({ outcome: 'approve' }),
          () => ({ outcome: 'maybe', verdict: { decision: 'allow' } }),
          () => ({ outcome: 'unresolved', verdict: { decision: 'allow' } }),
          () => ({ outcome: 'approve', verdict: { decision: 'allow', reason: 'host_error:approval_unresolved' } }),
        ])();
      case 'mismatch': {
        // The echo rule, alone or together with a later check (§9 validation order: echo first).
        const outcome = r.weighted([['approve', 4], ['reject', 2], ['maybe', 1], ['unresolved', 1]] as const);
        const resolution: ApprovalRule['resolve'] = { outcome, identity_override: r.pick<string | null>(['sha256:' + '0'.repeat(64), null, 'not-an-identity']) };
        if (outcome === 'reject') resolution.verdict = { decision: 'deny', reason: 'probe:rejected' };
        else if (outcome !== 'unresolved' && r.chance(0.8)) resolution.verdict = r.chance(0.8) ? { decision: 'allow' } : { decision: 'deny', reason: 'probe:x' };
        return resolution;
      }
      case 'recomputed':
        return { outcome: 'approve', verdict: { decision: 'allow' }, echo_recomputed: true };
      case 'raise':
        return { fault: 'raise' };
      case 'hang':
        this.hangs.resolver = true;
        return { fault: 'hang' };
    }
  }
}
