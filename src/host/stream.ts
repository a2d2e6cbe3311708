// §12.1 assembly of a streamed model response on a buffering host: the complete response is assembled
// before post_model_call; a stream that cannot be assembled is reported incomplete (never incorporated).
import type { Json, JsonObject } from '../core/types.js';

/** One streamed update from a model. */
export interface StreamChunk {
  /** A text delta (concatenated) or, for structured output, the whole content object. */
  content?: string | JsonObject;
  /** A complete tool call (streamed tool calls are delivered whole by the adapter). */
  tool_call?: { id: string; name: string; args: JsonObject };
  /** Present on the final chunk; its arrival is what makes the stream complete. */
  finish_reason?: string;
}

export interface AssembledResponse {
  content: Json;
  tool_calls: Array<{ id: string; name: string; args: JsonObject }>;
  finish_reason: string;
}

export type Assembly = { complete: true; response: AssembledResponse } | { complete: false; response: AssembledResponse };

/** The finish_reason §12.1 prescribes for a response that could not be assembled. */
export const STREAM_INCOMPLETE = 'stream_incomplete';

export function isStream(value: unknown): value is AsyncIterable<StreamChunk> {
  return typeof value === 'object' && value !== null && typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';
}

/**
 * Drains the stream, buffering everything (nothing is released before the verdicts, §12.1a). Complete iff a
 * chunk carried finish_reason and the stream then ended without error. An incomplete assembly carries
 * finish_reason "stream_incomplete" and no partial content (§12.1: the partial response is not incorporated).
 */
export async function assembleStream(stream: AsyncIterable<StreamChunk>): Promise<Assembly> {
  let text = '';
  let object: JsonObject | undefined;
  let sawText = false;
  const toolCalls: AssembledResponse['tool_calls'] = [];
  let finish: string | undefined;
  try {
    for await (const chunk of stream) {
      if (finish !== undefined) throw new Error('chunk after finish_reason');
      if (typeof chunk.content === 'string') {
        text += chunk.content;
        sawText = true;
      } else if (chunk.content !== undefined) {
        object = chunk.content;
      }
      if (chunk.tool_call) toolCalls.push(chunk.tool_call);
      if (typeof chunk.finish_reason === 'string') finish = chunk.finish_reason;
    }
  } catch {
    finish = undefined;
  }
  if (finish === undefined) {
    return { complete: false, response: { content: null, tool_calls: [], finish_reason: STREAM_INCOMPLETE } };
  }
  const content: Json = object ?? (sawText ? text : null);
  return { complete: true, response: { content, tool_calls: toolCalls, finish_reason: finish } };
}
