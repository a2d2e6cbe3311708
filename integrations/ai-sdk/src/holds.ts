// §5.2 "value could not be set": what the AI SDK can hold at each point. A transform past it is a
// host_error:transform_invalid deny in the record (never an applied transform the SDK then drops).
import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import type { Json, JsonObject } from 'agent-hooks-ctk/core';
import type { HoldsTarget } from 'agent-hooks-ctk/host';
import type { HookModelResponse } from 'agent-hooks-ctk/host';
import { messagesToPrompt, responseToContent } from './messages.js';

/** The reason a rebuild fails, or null when it succeeds. */
function attempt(rebuild: () => unknown): string | null {
  try {
    rebuild();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** input: the AI SDK's user/system message content is text. */
export const holdsText: HoldsTarget = (target) => {
  const content = (target as JsonObject | null)?.content;
  return typeof content === 'string' ? null : 'the AI SDK holds text in an input message';
};

/** pre_model_call: the prompt must rebuild from the transformed messages (same count and roles, text where text goes). */
export const holds = {
  prompt: (prompt: LanguageModelV3Prompt): HoldsTarget => (target: Json) => attempt(() => messagesToPrompt(target, prompt)),
};

/** post_model_call: text (or null) content and tool calls the generate result can carry. */
export const holdsResponse: HoldsTarget = (target) => attempt(() => responseToContent(target as unknown as HookModelResponse, []));
