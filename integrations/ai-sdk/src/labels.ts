// §5.4 result labels in the AI SDK: persisted with the data they label and resurfaced, as
// extensions.<namespace>.source_labels, on the later points whose target derives from that data.
//   model output   providerMetadata.agent_hooks.source_labels on the parts of the generate result (the AI SDK
//                  keeps it with the response messages, as providerOptions, into every later prompt);
//   tool result    kept by the session under its tool call id (the AI SDK gives a tool result no metadata of its own);
//   input          providerOptions.agent_hooks.source_labels on the input message.
import type { LanguageModelV4Content, LanguageModelV4Prompt, SharedV4ProviderOptions } from '@ai-sdk/provider';
import { mergeLabels, type LabelSet } from 'agent-hooks-ctk/host';

/** The providerMetadata / providerOptions key the labels travel under. */
export const LABELS_KEY = 'agent_hooks';

function labelsIn(options: SharedV4ProviderOptions | undefined): LabelSet | undefined {
  const set = options?.[LABELS_KEY]?.source_labels;
  return typeof set === 'object' && set !== null && !Array.isArray(set) ? (set as unknown as LabelSet) : undefined;
}

/** Provider options / metadata carrying `labels` (undefined when there are none, so nothing is added). */
export function labelOptions(labels: LabelSet, base?: SharedV4ProviderOptions): SharedV4ProviderOptions | undefined {
  if (Object.keys(labels).length === 0) return base;
  return { ...base, [LABELS_KEY]: { source_labels: labels } };
}

export interface LabelBook {
  /** §5.4: the labels of everything in the prompt (the data the model call's messages derive from). */
  ofPrompt(prompt: LanguageModelV4Prompt): LabelSet;
  /** The labels of the model response that made tool call `id` (its pre/post_tool_call derive from it). */
  ofCall(id: string): LabelSet | undefined;
  /** Persists a model response's labels on its parts (and for its tool calls); the same array when there are none. */
  onResponse(content: LanguageModelV4Content[], labels: LabelSet): LanguageModelV4Content[];
  /** Persists a tool result's labels under its call id. */
  onToolResult(id: string, labels: LabelSet): void;
}

export function createLabelBook(): LabelBook {
  const calls = new Map<string, LabelSet>();
  const results = new Map<string, LabelSet>();
  return {
    ofPrompt(prompt) {
      if (calls.size === 0 && results.size === 0 && !prompt.some((m) => labelsIn(m.providerOptions))) return {};
      const sets: Array<LabelSet | undefined> = [];
      for (const m of prompt) {
        sets.push(labelsIn(m.providerOptions));
        if (m.role === 'system') continue;
        for (const p of m.content) {
          if (typeof p === 'string') continue;
          sets.push(labelsIn(p.providerOptions));
          if (p.type === 'tool-result') sets.push(results.get(p.toolCallId));
          else if (p.type === 'tool-call') sets.push(calls.get(p.toolCallId));
        }
      }
      return mergeLabels(...sets);
    },
    ofCall: (id) => calls.get(id),
    onResponse(content, labels) {
      if (Object.keys(labels).length === 0) return content;
      return content.map((p) => {
        if (p.type === 'tool-call') calls.set(p.toolCallId, labels);
        return p.type === 'text' || p.type === 'tool-call' ? { ...p, providerMetadata: labelOptions(labels, p.providerMetadata) as never } : p;
      });
    },
    onToolResult(id, labels) {
      if (Object.keys(labels).length > 0) results.set(id, labels);
    },
  };
}
