// What an agent loop exchanges with its model and its tools, in the §4.2 shapes the contexts carry, and how a run
// ends: one declaration for the reference host, the hook session, the harness contract and the CTK's mocks.
import type { Json, JsonObject } from './types.js';

/** §4.2 `response.tool_calls[]`: one call a model response asks for. */
export interface ToolCall {
  id: string;
  name: string;
  args: JsonObject;
}

/** A model call: the model's id (§4.2 `model.id`) and the messages it is called with (`messages`). */
export interface ModelRequest {
  model_id: string;
  messages: Json;
}

/** §4.2 `response` of post_model_call. `tool_calls` is [] when the model asked for none. */
export interface ModelResponse {
  content: Json;
  tool_calls: ToolCall[];
  finish_reason: string;
}

/** A tool invocation as the host makes it: the call with the arguments the verdicts left (§4.2 `tool_call`). */
export interface ToolCallRequest {
  id: string;
  name: string;
  args: Json;
}

/** §4.2 `tool_result`: the tool's value and whether it is an error. */
export interface ToolCallResult {
  value: Json;
  is_error: boolean;
}

/** How a run ended (GRAMMAR.md §5.2 `run_outcome`). */
export type RunOutcome = 'completed' | 'blocked' | 'error';
