// The CTK's mock model and mock tools (VECTOR-FORMAT §2). The runner asserts on these logs,
// never on what the host says it did.
import type { Json, JsonObject } from '../core/types.js';
import type { ModelRequest, ModelResponse, Scenario, ToolCallRequest, ToolCallResult } from '../harness/contract.js';
import { cloneJson, jsonEqual } from './json.js';

export interface MockLog {
  model_calls: ModelRequest[];
  tool_invocations: Array<{ id: string; name: string; args: Json }>;
  /** Things the host did that the script did not foresee (reported as failures or notes). */
  overruns: string[];
  notes: string[];
}

export function newMockLog(): MockLog {
  return { model_calls: [], tool_invocations: [], overruns: [], notes: [] };
}

/** Nth model call → Nth respond; beyond the script → an overrun failure and a plain stop answer. */
export function createMockModel(scenario: Scenario, log: MockLog): (request: ModelRequest) => Promise<ModelResponse> {
  const script = scenario.model_script ?? [];
  return async (request) => {
    const n = log.model_calls.length;
    log.model_calls.push(cloneJson({ model_id: request?.model_id, messages: request?.messages }) as ModelRequest);
    const entry = script[n];
    if (!entry) {
      log.overruns.push(`host made ${n + 1} model calls, the script has ${script.length}`);
      return { content: null, tool_calls: [], finish_reason: 'stop' };
    }
    const r = cloneJson(entry.respond) as JsonObject;
    return {
      content: (r.content ?? null) as Json,
      tool_calls: (Array.isArray(r.tool_calls) ? r.tool_calls : []) as ModelResponse['tool_calls'],
      finish_reason: typeof r.finish_reason === 'string' ? r.finish_reason : 'stop',
    };
  };
}

/** Tools per `behavior`: first clause whose when_args deep-equals the args, or without when_args. */
export function createMockTools(scenario: Scenario, log: MockLog): (call: ToolCallRequest) => Promise<ToolCallResult> {
  const tools = scenario.tools ?? [];
  return async (call) => {
    log.tool_invocations.push(cloneJson({ id: call?.id, name: call?.name, args: call?.args }) as { id: string; name: string; args: Json });
    const tool = tools.find((t) => t.name === call?.name);
    if (!tool) {
      log.notes.push(`host invoked unknown tool "${String(call?.name)}"`);
      return { value: 'ctk: no scripted behaviour', is_error: true };
    }
    const clause = tool.behavior.find((b) => b.when_args === undefined || jsonEqual(b.when_args, call.args));
    if (!clause) {
      log.notes.push(`tool "${tool.name}" has no behaviour clause for args ${JSON.stringify(call.args)}`);
      return { value: 'ctk: no scripted behaviour', is_error: true };
    }
    return { value: cloneJson(clause.return), is_error: clause.is_error === true };
  };
}
