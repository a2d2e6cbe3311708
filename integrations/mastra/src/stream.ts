// §12.1 buffered mediation of a Mastra agent's streamed model calls: the model wrapper drains a doStream() result
// into one whole response before post_model_call (nothing of it reaches Mastra's loop, or the caller, before the
// verdict), then hands Mastra a stream of the response as the verdict left it.
import type { ContentPart, FinishReason } from './messages.js';

export type StreamPart = { type: string; delta?: string; id?: string; finishReason?: FinishReason; error?: unknown; [k: string]: unknown };

export type StreamAssembly =
  | { outcome: 'complete' | 'incomplete'; content: ContentPart[]; finish?: StreamPart; head: StreamPart[] }
  /** The provider failed mid-stream (an error part, or the stream threw): an errored model call (§12.1), not an incomplete one. */
  | { outcome: 'errored'; error: unknown };

/** Drains `stream`: text deltas joined into one text part, whole tool calls; complete iff a finish part arrived (§12.1). */
export async function assembleStreamParts(stream: ReadableStream<StreamPart>): Promise<StreamAssembly> {
  let text: string | undefined;
  const calls: ContentPart[] = [];
  const head: StreamPart[] = [];
  let finish: StreamPart | undefined;
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) break;
      if (part.type === 'text-delta') text = (text ?? '') + (part.delta ?? '');
      else if (part.type === 'tool-call') calls.push(part as ContentPart);
      else if (part.type === 'stream-start' || part.type === 'response-metadata') head.push(part);
      else if (part.type === 'finish') finish = part;
      else if (part.type === 'error') return { outcome: 'errored', error: part.error };
      // text/reasoning/tool-input start, end and deltas: the whole parts above carry what §4.2 reads
    }
  } catch (error) {
    return { outcome: 'errored', error };
  } finally {
    reader.releaseLock();
  }
  const content: ContentPart[] = [...(text !== undefined ? [{ type: 'text', text }] : []), ...calls];
  return finish ? { outcome: 'complete', content, finish, head } : { outcome: 'incomplete', content, head };
}

/** A stream of one whole response (after its post_model_call): what Mastra's loop consumes. */
export function replayStream(head: StreamPart[], content: ContentPart[], finish: StreamPart): ReadableStream<StreamPart> {
  const parts: StreamPart[] = [...head];
  content.forEach((c, i) => {
    if (c.type === 'text') parts.push({ type: 'text-start', id: `text-${i}` }, { type: 'text-delta', id: `text-${i}`, delta: c.text ?? '' }, { type: 'text-end', id: `text-${i}` });
    else parts.push(c as StreamPart);
  });
  parts.push(finish);
  return new ReadableStream({
    start(controller) {
      for (const p of parts) controller.enqueue(p);
      controller.close();
    },
  });
}
