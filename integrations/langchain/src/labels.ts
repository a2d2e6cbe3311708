// §5.4 result labels in LangChain: persisted with the message they label (additional_kwargs, which LangChain keeps
// with the message in the agent state, checkpoints and the invoke() result) and resurfaced, as
// extensions.<namespace>.source_labels, on the later points whose target derives from that message.
import type { BaseMessage } from '@langchain/core/messages';
import { isEmptyLabels, mergeLabels, type LabelSet } from 'agent-hooks-ctk/host';

/** The additional_kwargs member a message's labels travel under. */
export const LABELS_KEY = 'agent_hooks_labels';

/** additional_kwargs with `labels` merged in (the same object when there are none to add). */
export function withLabels(kwargs: Record<string, unknown> | undefined, labels: LabelSet): Record<string, unknown> {
  const base = kwargs ?? {};
  if (isEmptyLabels(labels)) return base;
  return { ...base, [LABELS_KEY]: mergeLabels(labelsOfMessage(base), labels) };
}

function labelsOfMessage(kwargs: Record<string, unknown> | undefined): LabelSet | undefined {
  const set = kwargs?.[LABELS_KEY];
  return typeof set === 'object' && set !== null && !Array.isArray(set) ? (set as LabelSet) : undefined;
}

/** The union of the labels persisted on `messages`. */
export function labelsOf(messages: readonly BaseMessage[]): LabelSet {
  const sets: Array<LabelSet | undefined> = [];
  for (const m of messages) sets.push(labelsOfMessage(m.additional_kwargs as Record<string, unknown> | undefined));
  if (sets.every((s) => s === undefined)) return {};
  return mergeLabels(...sets);
}
