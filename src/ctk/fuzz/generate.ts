// The generator: one random, valid vector in our grammar (VECTOR-FORMAT + the HARNESS.md extensions) per
// (seed, case index), restricted to the host's declared surface (space.ts). Every draw goes through the Rng,
// so the same seed and surface give the same case. The `expect` is a placeholder: the fuzzer compares the
// host with the oracle and never checks it; to-vector.ts fills a real one from the oracle's trace.
import { type InterceptionPoint, type Json, type JsonObject } from '../../core/types.js';
import { LosslessNumber } from '../json.js';
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

/** Tools and the argument shapes the model asks for (values the transforms and matches below refer to). */
const TOOLS: readonly ToolTemplate[] = [
  { name: 'lookup_order', args: [{ order: 'ord-417' }, { order: 'ord-9' }] },
  { name: 'file_refund', args: [{ order: 'ord-417', amount: 40 }, { order: 'ord-417', amount: 8400 }] },
  { name: 'send_note', args: [{ to: 'ops', text: 'refund filed' }, { to: 'customer', text: 'hello' }] },
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
const FINAL_ANSWERS: Json[] = ['Your refund has been filed.', 'Order ord-9 has shipped.', { text: 'done', ticket: 'T-88' }];
const TOOL_RESULTS: Json[] = ['ok', { status: 'ok', ledger: 'LEDGER-ENTRY-77' }, { status: 'shipped', items: [1, 2, 3] }, 42, null, ['a', 'b']];
const ROLES = ['user', 'system', 'external'];
const BAD_PATHS = ['$context.target', 'target.content', '$target.*', '$target[-1]', '$target["a b"]', '', '$targets.x'];
const REDACTIONS = ['$target.order', '$target.content', '$target[0].content', '$target.amount', '$target.text'];

/** A value nested `depth` objects deep (§12.3 bounds). */
function deepValue(depth: number): Json {
  let v: Json = 'bottom';
  for (let i = 0; i < depth; i++) v = { d: v };
  return v;
}

// ---------------------------------------------------------------------------------------------- builder

interface Turn {
  /** Responses carrying tool calls, then the final answer. */
  responses: JsonObject[];
}

class CaseBuilder {
  private toolCallCounter = 0;
  private readonly tools: ToolTemplate[];
  private readonly points: InterceptionPoint[];
  private hangs = { interceptor: false, resolver: false };
  /** Hangs are rare and at most one per case: each costs a timeout, and throughput matters. */
  private hangAllowed: boolean;
  private liftable = false;

  constructor(
    private readonly rng: Rng,
    private readonly space: GenerationSpace,
    private readonly options: GenerateOptions,
  ) {
    this.hangAllowed = space.hangFaults && rng.chance(0.05);
    this.tools = space.tools ? rng.subset(TOOLS, rng.int(1, TOOLS.length)) : [];
    this.points = ['agent_startup', 'input', 'pre_model_call', 'post_model_call', ...(this.tools.length > 0 ? (['pre_tool_call', 'post_tool_call'] as const) : []), 'output', 'agent_shutdown'];
  }

  build(id: string, title: string): Vector {
    const r = this.rng;
    const v: Record<string, unknown> = { id, title, spec_clause: '13.2', part: 'fuzz' };
    const caps = ['model_calls'];

    // --- composition, mode, provider
    const ps = r.pick(this.space.profiles);
    const composition: JsonObject = { profile: ps.profile };
    for (const k of ps.knobs) {
      if (k.unsetOk && r.chance(0.3)) continue; // unset: the §7.2 default applies
      composition[k.knob] = r.pick(k.values);
    }
    const mode = r.weighted(this.space.modes.map((m) => [m, m === 'enforce' ? 3 : 1] as const));
    const provider = r.weighted(this.space.providers.map((p) => [p, p === 'jcs-sha256' ? 16 : p === null ? 3 : 1] as const));

    // --- scenario
    const scenario = this.scenario(caps);

    // --- interceptors
    const count = r.weighted([[0, 1], [1, 8], [2, 6], [3, 3], [4, 2]] as const);
    const scripts: InterceptorRule[][] = [];
    for (let i = 0; i < count; i++) scripts.push(this.ruleList(scenario));

    // --- approval seam
    const knobAsksSeam = Object.entries(composition).some(([k, val]) => k !== 'profile' && val === 'approval') || composition.on_approval === 'resume';
    const approval = r.chance(this.liftable || knobAsksSeam ? 0.7 : 0.15) ? this.approvalScript() : [];

    if (composition.profile !== 'sequential/first_deny' || Object.keys(composition).length > 1 || r.chance(0.5)) v.composition = composition;
    if (mode !== 'enforce' || r.chance(0.2)) v.mode = mode;
    if (provider !== 'jcs-sha256' || r.chance(0.1)) v.identity_provider = provider;
    if (approval.length > 0 && r.chance(0.2)) v.redact_for_approval = r.subset(REDACTIONS, r.int(1, 2));
    v.capabilities = caps;
    v.scenario = scenario;
    if (count === 1 && r.chance(0.5)) v.interceptor_script = scripts[0];
    else v.interceptor_scripts = scripts;
    if (approval.length > 0) v.approval_script = approval;
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
    const input = () => ({ content: r.pick(INPUTS), role: r.weighted([['user', 6], ['system', 1], ['external', 1]] as const) });
    if (turns > 1) {
      scenario.inputs = Array.from({ length: turns }, input);
      caps.push('multi_turn');
    } else scenario.input = input();
    if (this.tools.length > 0) {
      scenario.tools = this.tools.map((t) => this.toolDefinition(t));
      caps.push('tool_calls');
    }
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
      calls.push({ id: `call-${++this.toolCallCounter}`, name: tool.name, args: structuredClone(r.pick(tool.args)) });
    }
    return { content: r.chance(0.7) ? null : 'let me check that', tool_calls: calls, finish_reason: 'tool_calls' };
  }

  private finalAnswer(): JsonObject {
    return { content: structuredClone(this.rng.pick(FINAL_ANSWERS)), tool_calls: [], finish_reason: 'stop' };
  }

  private toolDefinition(t: ToolTemplate): JsonObject {
    const r = this.rng;
    const behavior: JsonObject[] = [];
    if (r.chance(0.4)) behavior.push({ when_args: structuredClone(r.pick(t.args)), return: this.toolResult(), ...(r.chance(0.2) ? { is_error: true } : {}) });
    behavior.push({ return: this.toolResult(), ...(r.chance(0.15) ? { is_error: true } : {}) });
    return { name: t.name, behavior };
  }

  private toolResult(): Json {
    const r = this.rng;
    if (r.chance(0.03)) return { status: 'ok', id: new LosslessNumber('9007199254740993') as unknown as Json }; // beyond ±(2^53−1), §10.2
    if (this.space.deepValueDepth !== undefined && r.chance(0.03)) return deepValue(this.space.deepValueDepth); // §12.3
    return structuredClone(r.pick(TOOL_RESULTS));
  }

  // ---------------------------------------------------------------------------------------- interceptors

  private ruleList(scenario: JsonObject): InterceptorRule[] {
    const r = this.rng;
    const n = r.weighted([[0, 1], [1, 5], [2, 4], [3, 2], [4, 1]] as const);
    const rules: InterceptorRule[] = [];
    for (let i = 0; i < n; i++) {
      const at = r.weighted(this.points.map((p) => [p, p === 'agent_startup' || p === 'agent_shutdown' ? 1 : 3] as const));
      const rule: InterceptorRule = { at };
      if (r.chance(0.25)) {
        const match = this.match(at, scenario);
        if (match) rule.match = match;
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
        return this.decorate({ decision: 'transform', transform: this.transform(at) }, true);
      case 'invalid':
        return this.invalidVerdict(at);
      case 'raw':
        return r.pick<Json>(['allow', 7, ['allow'], null, true]);
    }
  }

  /** Optional members: reason, message (sometimes over 256 bytes), warnings, result_labels, evidence. */
  private decorate(v: JsonObject, permit: boolean): JsonObject {
    const r = this.rng;
    if (permit && r.chance(0.3)) v.reason = r.pick(REASONS);
    if (r.chance(0.3)) v.message = r.chance(0.35) ? r.pick(LONG_MESSAGES) : 'scripted message';
    if (r.chance(0.25)) {
      const ws = r.subset(WARNINGS, r.int(1, 2)).map((w) => structuredClone(w));
      if (r.chance(0.2)) ws.push({ reason: 'probe:long', message: r.pick(LONG_MESSAGES) });
      v.warnings = ws;
    }
    if (r.chance(permit ? 0.3 : 0.15)) v.result_labels = r.subset(LABELS, r.int(1, 2));
    if (r.chance(0.1)) v.evidence = { artefact: 'ev-17', verification_pointers: { ticket: 'https://example.invalid/tickets/17' } };
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
    let path: string;
    let value: Json | undefined;
    if (mayFail && r.chance(0.08)) {
      path = r.pick(BAD_PATHS);
      value = 'x';
    } else {
      switch (at) {
        case 'input':
          [path, value] = bad ? [r.pick([`${root}.missing`, `${root}.content.deeper`, `${root}[0]`]), 'x'] : [`${root}.content`, 'rewritten input'];
          break;
        case 'pre_model_call':
          [path, value] = bad ? [r.pick([`${root}[9].content`, `${root}.messages`]), 'x'] : r.chance(0.7) ? [`${root}[0].content`, 'rewritten prompt'] : [root, [{ role: 'user', content: 'replaced conversation' }]];
          break;
        case 'post_model_call':
          if (bad) [path, value] = [r.pick([`${root}.tool_calls[7]`, `${root}.missing.x`]), 'x'];
          else [path, value] = r.weighted([
            [[`${root}.content`, 'rewritten answer'], 3],
            [[`${root}.tool_calls[0].args`, { order: 'ord-0' }], this.tools.length > 0 ? 1 : 0],
            [[`${root}.tool_calls`, []], this.tools.length > 0 ? 1 : 0],
          ] as const) as [string, Json];
          break;
        case 'pre_tool_call': {
          const tool = r.pick(this.tools);
          const key = r.pick(Object.keys(tool.args[0]!));
          [path, value] = bad ? [r.pick([`${root}.nope`, `${root}[0]`, `${root}.${key}.deeper`]), 'x'] : r.chance(0.7) ? [`${root}.${key}`, 'rewritten-arg'] : [root, { order: 'ord-0', amount: 1 }];
          break;
        }
        case 'post_tool_call':
          [path, value] = bad ? [r.pick([`${root}.nope.deeper`, `${root}[3]`]), 'x'] : r.chance(0.6) ? [root, { redacted: true }] : [`${root}.status`, 'masked'];
          break;
        case 'output':
          [path, value] = bad ? [`${root}.missing`, 'x'] : [`${root}.content`, 'rewritten output'];
          break;
        default: // agent_startup / agent_shutdown: a transform is forbidden whatever the path (§4.3)
          [path, value] = [r.pick([`${root}.tools_registered`, `${root}.reason`, root]), ['x']];
      }
    }
    const t: JsonObject = { path };
    if (!r.chance(0.1)) t.value = value ?? null; // absent value ≡ null (§5.2)
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
    ])();
  }

  // -------------------------------------------------------------------------------------- approval seam

  private approvalScript(): ApprovalRule[] {
    const r = this.rng;
    const n = r.weighted([[1, 3], [2, 2], [3, 1]] as const);
    const rules: ApprovalRule[] = [];
    for (let i = 0; i < n; i++) {
      const at = i < n - 1 || r.chance(0.3) ? r.pick(this.points.filter((p) => p !== 'agent_shutdown')) : undefined;
      const rule: ApprovalRule = { resolve: this.resolution(at) };
      if (at !== undefined) rule.match = { interception_point: at };
      rules.push(rule);
    }
    return rules;
  }

  /** A resolution; a transforming one only where the rule names its point (the path must fit that target). */
  private resolution(at: InterceptionPoint | undefined): ApprovalRule['resolve'] {
    const r = this.rng;
    const kind = r.weighted([
      ['approve', 30],
      ['approve-transform', at !== undefined ? 8 : 0],
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
        return { outcome: 'approve', verdict: { decision: 'transform', transform: this.transform(at!, false) } };
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
        const approve = r.chance(0.6);
        return {
          outcome: approve ? 'approve' : 'reject',
          verdict: approve ? { decision: 'allow' } : { decision: 'deny', reason: 'probe:rejected' },
          identity_override: r.pick<string | null>(['sha256:' + '0'.repeat(64), null, 'not-an-identity']),
        };
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
