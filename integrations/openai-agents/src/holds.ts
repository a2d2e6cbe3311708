// §5.2 "value could not be set": what the Agents SDK can hold at each point. A transform past it is a
// host_error:transform_invalid deny in the record (never an applied transform the SDK then cannot carry).
// Each check is the rebuild the integration would do, so what passes here is exactly what it can apply.
import type { ModelRequest, ModelResponse } from '@openai/agents-core';
import type { Json, JsonObject } from 'agent-hooks-ctk/core';
import type { HoldsTarget, HookModelResponse } from 'agent-hooks-ctk/host';
import { messagesToRequest, specToResponse, type ToolValues } from './messages.js';

/** The reason a rebuild fails (payload-free: the integration's messages name places, never content), or null. */
function attempt(rebuild: () => unknown): string | null {
  try {
    rebuild();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** input: the SDK's user/system message content is text. */
export const holdsText: HoldsTarget = (target) => (typeof (target as JsonObject | null)?.content === 'string' ? null : 'the Agents SDK holds text in an input message');

/** pre_model_call: the request must rebuild from the transformed messages (same count and roles, text where text goes). */
export const holdsRequest =
  (request: ModelRequest, values: ToolValues): HoldsTarget =>
  (target: Json) =>
    attempt(() => messagesToRequest(target, request, values));

/** post_model_call: text (or null) content and function calls the SDK's response output can carry. */
export const holdsResponse =
  (original: ModelResponse): HoldsTarget =>
  (target: Json) =>
    attempt(() => specToResponse(target as unknown as HookModelResponse, original));
