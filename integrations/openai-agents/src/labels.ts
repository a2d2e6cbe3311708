// §5.4 result labels in the Agents SDK: persisted with the data they label and resurfaced, as
// extensions.<namespace>.source_labels, on the later points whose target derives from that data.
//   input message, model output (assistant text, function calls)
//                  providerData.agent_hooks.source_labels on the SDK item itself, so the labels stay with the item in
//                  the run's history and in the history a caller carries into its next turn;
//   tool result    kept by the session under its call id while the run lasts (the SDK builds the function_call_result
//                  item itself from the tool's text), then written onto that item in the returned history.
// The wrapped model removes the key from every item before the model it wraps sees the request: the labels never
// reach a provider.
import type { AgentInputItem, ModelRequest } from '@openai/agents-core';
import { isEmptyLabels, mergeLabels, type LabelSet } from 'agent-hooks-ctk/host';

/** The providerData key the labels travel under. */
export const LABELS_KEY = 'agent_hooks';

type Labelled = { providerData?: Record<string, any>; type?: string; callId?: string };

/** The labels an item carries (undefined when none). */
export function labelsOf(item: unknown): LabelSet | undefined {
  const set = (item as Labelled | null)?.providerData?.[LABELS_KEY]?.source_labels;
  return typeof set === 'object' && set !== null && !Array.isArray(set) ? (set as LabelSet) : undefined;
}

/** `item` carrying `labels` in its providerData (merged with any it carries); the same item when there are none. */
export function withLabels<T>(item: T, labels: LabelSet): T {
  if (isEmptyLabels(labels)) return item;
  const it = item as Labelled;
  const merged = mergeLabels(labelsOf(it), labels);
  return { ...it, providerData: { ...it.providerData, [LABELS_KEY]: { source_labels: merged } } } as T;
}

function withoutLabels<T>(item: T): T {
  const it = item as Labelled;
  if (it?.providerData?.[LABELS_KEY] === undefined) return item;
  const { [LABELS_KEY]: _dropped, ...rest } = it.providerData;
  const out = { ...it } as Labelled;
  if (Object.keys(rest).length === 0) delete out.providerData;
  else out.providerData = rest;
  return out as T;
}

/** The request the wrapped model hands on: no item carries the labels key (the same request when none did). */
export function stripLabels(request: ModelRequest): ModelRequest {
  if (typeof request.input === 'string' || !request.input.some((i) => (i as Labelled).providerData?.[LABELS_KEY] !== undefined)) return request;
  return { ...request, input: request.input.map(withoutLabels) };
}

export interface LabelBook {
  /** §5.4: the labels of everything in a model request (the data the call's messages derive from). */
  ofItems(input: ModelRequest['input']): LabelSet;
  /** The labels of the model response that made function call `callId` (its pre/post_tool_call derive from it). */
  ofCall(callId: string): LabelSet | undefined;
  /** Persists a model response's labels for its function calls (the items carry them too, via withLabels). */
  onCalls(callIds: readonly string[], labels: LabelSet): void;
  /** Persists a tool result's labels under its call id. */
  onToolResult(callId: string, labels: LabelSet): void;
  /** The history with each function_call_result carrying its result's labels (the same array when none has any). */
  stamp(history: AgentInputItem[]): AgentInputItem[];
  /** Forgets the call and result labels kept for a run (a new run reads them from the stamped history it is given). */
  clear(): void;
}

export function createLabelBook(): LabelBook {
  const calls = new Map<string, LabelSet>();
  const results = new Map<string, LabelSet>();
  const resultLabels = (item: Labelled): LabelSet | undefined => (item.type === 'function_call_result' && item.callId !== undefined ? results.get(item.callId) : undefined);
  return {
    ofItems(input) {
      if (typeof input === 'string') return {};
      const sets: Array<LabelSet | undefined> = [];
      for (const item of input) sets.push(labelsOf(item), resultLabels(item as Labelled));
      return mergeLabels(...sets);
    },
    ofCall: (callId) => calls.get(callId),
    onCalls(callIds, labels) {
      if (!isEmptyLabels(labels)) for (const id of callIds) calls.set(id, labels);
    },
    onToolResult(callId, labels) {
      if (!isEmptyLabels(labels)) results.set(callId, labels);
    },
    stamp(history) {
      if (results.size === 0) return history;
      return history.map((item) => {
        const labels = resultLabels(item as Labelled);
        return labels ? withLabels(item, labels) : item;
      });
    },
    clear() {
      calls.clear();
      results.clear();
    },
  };
}
