// A deliberately small in-process host for the runner's own tests: the GRAMMAR.md §2.2 reference
// loop under sequential/first_deny only (allow/deny/transform of the target; no approval seam), with
// switches that make it misbehave one way at a time so every invariant can be seen failing.
// It is not the reference host (src/harness/reference-harness.ts) and makes no conformance claim.
import { TARGET_FIELD, type Json, type JsonObject, type InterceptionPoint } from '../core/types.js';
import { jcsSha256 } from '../core/identity.js';
import { parseTargetPath, setPath } from '../core/paths.js';
import type { Harness, HostSurface, RunReport, RunSetup } from '../harness/contract.js';
import { applyMutateFault } from './decide.js';
import { deepClone } from '../core/json.js';

export interface FakeHarnessFlaws {
  /** Do not emit agent_shutdown. */
  noShutdown?: boolean;
  /** Emit agent_startup twice. */
  doubleStartup?: boolean;
  /** Repeat the previous sequence number at the Nth emission. */
  repeatSequenceAt?: number;
  /** Invoke a tool even when its pre_tool_call was denied, and emit post_tool_call. */
  ignorePreToolDeny?: boolean;
  /** Put the first tool result into every record's session_id. */
  leakPayload?: boolean;
  /** Drop the `agent` member of contexts at this point. */
  invalidContextAt?: InterceptionPoint;
  /** Drop `decided_by` from records. */
  invalidRecord?: boolean;
  /** Throw from run(). */
  throwOnRun?: boolean;
  /** Never resolve run(). */
  hangRun?: boolean;
  /** Make one model call more than the script. */
  extraModelCall?: boolean;
  /** Report this many interceptors registered instead of the real count. */
  reportRegistered?: number;
  /** Report a records array shorter by one (drop the record at this index). */
  dropRecordAt?: number;
  /** Don't dispatch this point to interceptors (but record it). */
  skipDispatchAt?: InterceptionPoint;
  /** Report completed with this final output regardless. */
  forceFinalOutput?: Json;
  /** Report the wrong identity provider on records. */
  wrongProvider?: boolean;
  /** Omit on_approval from the record composition. */
  dropKnob?: boolean;
}

export const FAKE_SURFACE: HostSurface = {
  name: 'ctk-fake-host',
  version: '0.0.0',
  capabilities: ['model_calls', 'tool_calls', 'raw_interceptor_return', 'hang_faults'],
  buffered_output: true,
  profiles: { 'sequential/first_deny': { on_approval: ['stop'] } },
  identity_providers: ['jcs-sha256'],
  modes: ['enforce'],
  postures: { tool_seam_host_error: 'continue' },
};


export function createFakeHarness(flaws: FakeHarnessFlaws = {}, surface: HostSurface = FAKE_SURFACE): Harness {
  let setup: RunSetup | undefined;
  return {
    async describe() {
      return deepClone(surface);
    },
    async setup(run) {
      setup = run;
    },
    async teardown() {
      setup = undefined;
    },
    async run(): Promise<RunReport> {
      if (!setup) throw new Error('run() before setup()');
      if (flaws.throwOnRun) throw new Error('fake host: deliberate failure');
      if (flaws.hangRun) return new Promise<RunReport>(() => undefined);
      return runLoop(setup, flaws);
    },
  };
}

function identityOf(ctx: JsonObject): string | null {
  try {
    return jcsSha256(ctx);
  } catch {
    return null;
  }
}

/** §4.3 write-back: the new target, mirrored into the conditional field it aliases. */
function withTarget(ctx: JsonObject, aliasPath: string[], target: Json): JsonObject {
  const next = deepClone(ctx);
  next.target = deepClone(target);
  let holder = next;
  for (const p of aliasPath.slice(0, -1)) holder = holder[p] as JsonObject;
  holder[aliasPath[aliasPath.length - 1]!] = deepClone(target);
  return next;
}

async function runLoop(s: RunSetup, flaws: FakeHarnessFlaws): Promise<RunReport> {
  const records: JsonObject[] = [];
  const identities: RunReport['identities'] = [];
  let seq = 0;
  let leak: string | undefined;
  const tools = (s.scenario.tools ?? []).map((t) => t.name).sort();

  /** One emission; returns the combined decision and the (possibly transformed) target. */
  async function emit(point: InterceptionPoint, fields: JsonObject): Promise<{ denied: boolean; target: Json; reason?: string }> {
    if (flaws.repeatSequenceAt !== undefined && records.length === flaws.repeatSequenceAt) seq--;
    const targetPath = TARGET_FIELD[point].split('.');
    let target: Json = fields;
    for (const p of targetPath) target = (target as JsonObject)[p] as Json;
    const ctx: JsonObject = {
      spec: 'agent-hooks/0.1',
      interception_point: point,
      timestamp: '2026-11-29T00:00:00.000Z',
      sequence: seq++,
      agent: { id: 'fake-agent', framework: 'ctk-fake' },
      session: { id: 'fake-session' },
      ...fields,
      target: deepClone(target),
    };
    if (flaws.invalidContextAt === point) delete ctx.agent;
    const inputIdentity = identityOf(ctx);
    let verdict: JsonObject = { decision: 'allow' };
    let decidedBy: number | null = null;
    let current = ctx;
    if (flaws.skipDispatchAt !== point) {
      for (const ic of s.interceptors) {
        const copy = deepClone(current);
        const action = await ic.decide(copy);
        let v: JsonObject;
        if (action.kind === 'return' && action.value && typeof action.value === 'object' && !Array.isArray(action.value)) v = action.value as JsonObject;
        else if (action.kind === 'mutate') v = applyMutateFault(copy);
        else v = { decision: 'deny', reason: action.kind === 'return' ? 'host_error:verdict_invalid' : 'host_error:interceptor_failed' };
        if (v.decision === 'transform') {
          const t = v.transform as JsonObject | undefined;
          const parsed = parseTargetPath(t?.path);
          const applied = parsed.ok ? setPath(current.target as Json, parsed.segments, (t?.value ?? null) as Json) : undefined;
          if (applied && applied.ok) {
            current = withTarget(current, targetPath, applied.root);
            verdict = { decision: 'transform', transform: { path: t!.path as string } };
            decidedBy = ic.index;
            continue;
          }
          v = { decision: 'deny', reason: 'host_error:transform_invalid' };
        }
        if (v.decision === 'deny') {
          verdict = { decision: 'deny', ...(typeof v.reason === 'string' ? { reason: v.reason } : {}) };
          decidedBy = ic.index;
          break;
        }
      }
    }
    const enforcedIdentity = identityOf(current);
    identities.push({ input_identity: inputIdentity, enforced_identity: enforcedIdentity });
    const record: JsonObject = {
      interception_point: point,
      mode: s.mode,
      verdict,
      input_identity: inputIdentity,
      enforced_identity: enforcedIdentity,
      identity_provider: flaws.wrongProvider ? 'other' : s.identity_provider,
      session_id: leak !== undefined && flaws.leakPayload ? leak : 'fake-session',
      sequence: ctx.sequence as number,
      timestamp: ctx.timestamp as string,
      decided_by: decidedBy,
      composition: flaws.dropKnob ? { profile: s.composition.profile } : { profile: s.composition.profile, on_approval: s.composition.on_approval ?? 'stop' },
      fold_truncated: false,
      interceptors_registered: flaws.reportRegistered ?? s.interceptors.length,
    };
    if (flaws.invalidRecord) delete record.decided_by;
    records.push(record);
    return { denied: verdict.decision === 'deny', target: current.target as Json, ...(typeof verdict.reason === 'string' ? { reason: verdict.reason } : {}) };
  }

  let outcome: RunReport['outcome'] = 'completed';
  let finalOutput: Json = null;
  const outputs: Json[] = [];
  const startup = await emit('agent_startup', { agent_init: { tools_registered: tools } });
  if (flaws.doubleStartup) await emit('agent_startup', { agent_init: { tools_registered: tools } });
  if (startup.denied) outcome = 'blocked';
  else {
    const turns = (s.scenario.inputs ?? [s.scenario.input]) as JsonObject[];
    const calls = (s.scenario.model_script ?? []).length + (flaws.extraModelCall ? 1 : 0);
    let used = 0;
    for (const inputValue of turns) {
      if (outcome !== 'completed') break;
      const input = await emit('input', { input: deepClone(inputValue) });
      if (input.denied) {
        outcome = 'blocked';
        outputs.push(null);
        break;
      }
      const inp = input.target as JsonObject;
      const messages: Json[] = [{ role: inp.role as string, content: inp.content as Json }];
      let answer: Json | undefined;
      while (used < calls && answer === undefined && outcome === 'completed') {
        const n = used++;
        const pre = await emit('pre_model_call', { model: { id: 'mock' }, messages: deepClone(messages) });
        if (pre.denied) {
          outcome = 'blocked';
          break;
        }
        const response = await s.model({ model_id: 'mock', messages: pre.target });
        const post = await emit('post_model_call', { model: { id: 'mock' }, response: deepClone(response) as unknown as JsonObject });
        if (post.denied) {
          outcome = 'blocked';
          break;
        }
        const r = post.target as JsonObject;
        const toolCalls = (r.tool_calls ?? []) as JsonObject[];
        if (toolCalls.length === 0 && !(flaws.extraModelCall && n < calls - 1)) {
          answer = r.content ?? null;
          break;
        }
        for (const call of toolCalls) {
          const preTool = await emit('pre_tool_call', { tool_call: deepClone(call) });
          if (preTool.denied && !flaws.ignorePreToolDeny) {
            messages.push({ role: 'tool', content: `blocked: ${preTool.reason ?? 'denied'}` });
            continue;
          }
          const args = preTool.target;
          const result = await s.tools({ id: call.id as string, name: call.name as string, args });
          if (leak === undefined && typeof result.value === 'string') leak = result.value;
          const postTool = await emit('post_tool_call', { tool_call: { ...deepClone(call), args: deepClone(args) }, tool_result: { value: deepClone(result.value), is_error: result.is_error } });
          if (!postTool.denied) messages.push({ role: 'tool', content: postTool.target as Json });
        }
        messages.push({ role: 'assistant', content: (r.content ?? '') as Json });
      }
      if (outcome === 'completed') {
        const out = await emit('output', { output: { content: (answer ?? '') as Json } });
        if (out.denied) outcome = 'blocked';
        else finalOutput = (out.target as JsonObject).content ?? null;
      }
      outputs.push(outcome === 'completed' ? finalOutput : null);
    }
  }
  if (!flaws.noShutdown) await emit('agent_shutdown', { summary: { reason: outcome === 'completed' ? 'completed' : 'error' } });
  if (flaws.dropRecordAt !== undefined) {
    records.splice(flaws.dropRecordAt, 1);
    identities.splice(flaws.dropRecordAt, 1);
  }
  return {
    outcome,
    final_output: flaws.forceFinalOutput !== undefined ? flaws.forceFinalOutput : outcome === 'completed' ? finalOutput : null,
    identities,
    records,
    ...(s.scenario.inputs ? { outputs } : {}),
  };
}
