// §12.1 buffered mediation of the AI SDK's streamed model calls: the middleware drains a doStream() result into
// one whole response before post_model_call (nothing of it reaches the loop, or the caller, before the verdict),
// then hands the AI SDK a stream of the response as the verdict left it.
import type { LanguageModelV4Content, LanguageModelV4FinishReason, LanguageModelV4StreamPart, LanguageModelV4Usage, SharedV4ProviderMetadata } from '@ai-sdk/provider';

export type StreamAssembly =
  | { outcome: 'complete' | 'incomplete'; content: LanguageModelV4Content[]; finishReason?: LanguageModelV4FinishReason; usage?: LanguageModelV4Usage; providerMetadata?: SharedV4ProviderMetadata; head: LanguageModelV4StreamPart[] }
  /** The provider failed mid-stream (an error part, or the stream threw): an errored model call (§12.1), not an incomplete one. */
  | { outcome: 'errored'; error: unknown };

/**
 * Drains `stream`: text deltas joined into one text part, whole tool calls, reasoning joined, files and sources kept.
 * Complete iff a finish part arrived (§12.1: a stream that ended without one cannot be assembled).
 */
export async function assembleStreamParts(stream: ReadableStream<LanguageModelV4StreamPart>): Promise<StreamAssembly> {
  let text: string | undefined;
  let reasoning: string | undefined;
  const calls: LanguageModelV4Content[] = [];
  const other: LanguageModelV4Content[] = [];
  const head: LanguageModelV4StreamPart[] = [];
  let finish: Extract<LanguageModelV4StreamPart, { type: 'finish' }> | undefined;
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) break;
      switch (part.type) {
        case 'text-delta':
          text = (text ?? '') + part.delta;
          break;
        case 'reasoning-delta':
          reasoning = (reasoning ?? '') + part.delta;
          break;
        case 'tool-call':
          calls.push(part);
          break;
        case 'file':
        case 'source':
        case 'tool-result':
        case 'tool-approval-request':
          other.push(part as LanguageModelV4Content);
          break;
        case 'stream-start':
        case 'response-metadata':
          head.push(part);
          break;
        case 'finish':
          finish = part;
          break;
        case 'error':
          return { outcome: 'errored', error: part.error };
        default:
          break; // text/reasoning/tool-input start, end and deltas: the whole parts above carry them
      }
    }
  } catch (error) {
    return { outcome: 'errored', error };
  } finally {
    reader.releaseLock();
  }
  const content: LanguageModelV4Content[] = [
    ...(reasoning !== undefined ? [{ type: 'reasoning' as const, text: reasoning }] : []),
    ...(text !== undefined ? [{ type: 'text' as const, text }] : []),
    ...calls,
    ...other,
  ];
  if (!finish) return { outcome: 'incomplete', content, head };
  return { outcome: 'complete', content, finishReason: finish.finishReason, usage: finish.usage, ...(finish.providerMetadata ? { providerMetadata: finish.providerMetadata } : {}), head };
}

/** A stream of one whole response (after its post_model_call): what the AI SDK's streamText loop consumes. */
export function replayStream(head: LanguageModelV4StreamPart[], content: LanguageModelV4Content[], finish: Extract<LanguageModelV4StreamPart, { type: 'finish' }>): ReadableStream<LanguageModelV4StreamPart> {
  const parts: LanguageModelV4StreamPart[] = [...head];
  content.forEach((c, i) => {
    if (c.type === 'text' || c.type === 'reasoning') {
      const id = `${c.type}-${i}`;
      const meta = c.providerMetadata ? { providerMetadata: c.providerMetadata } : {};
      parts.push({ type: `${c.type}-start`, id, ...meta } as LanguageModelV4StreamPart, { type: `${c.type}-delta`, id, delta: c.text } as LanguageModelV4StreamPart, { type: `${c.type}-end`, id } as LanguageModelV4StreamPart);
    } else parts.push(c as LanguageModelV4StreamPart);
  });
  parts.push(finish);
  return new ReadableStream({
    start(controller) {
      for (const p of parts) controller.enqueue(p);
      controller.close();
    },
  });
}
