// The declared conversation layout (HostSurface.layout): how a host lays out the message list of its model requests.
// §4.2 pins that `messages` is what the model receives, and nothing about how a host builds that list, so where a
// tool call's results go, whether earlier turns are carried, which messages the host puts first, and whether a
// pre_model_call transform outlives its request are the host's to declare (HARNESS.md, *The conversation layout*).
// This file is the vocabulary: validation with defaults filled in (surface.ts, stdio validate.ts), the gate a vector
// states (`layout`, GRAMMAR.md §1) and its skip reason.
import { isPlainObject } from '../core/json.js';
import { REFERENCE_LAYOUT, type ConversationLayout } from '../host/loop.js';

export { REFERENCE_LAYOUT, type ConversationLayout };

/** The members a vector can gate on, each with its values; the first value is the reference loop's. */
export const LAYOUT_GATES = {
  assistant_turn: ['after_tool_results', 'before_tool_results'],
  history: ['turn', 'session', 'answers', 'incorporated'],
  host_messages: ['none', 'prepended'],
  pre_model_transform: ['request', 'conversation'],
  assistant_message: ['content_or_tool_calls', 'content_then_tool_calls'],
  external_input: ['external', 'user'],
  tool_error_content: ['value', 'text'],
  user_placeholder: ['none', 'inserted'],
  null_answer: ['kept', 'empty_text'],
  non_leading_system: ['kept', 'moved_to_front', 'user_text'],
} as const satisfies Record<keyof ConversationLayout, readonly string[]>;
export type LayoutMember = keyof typeof LAYOUT_GATES;
export const LAYOUT_MEMBERS = Object.keys(LAYOUT_GATES) as LayoutMember[];

/** The value of one member as a vector's gate names it (host_messages: "none" or "prepended"). */
export function layoutValue(layout: ConversationLayout, member: LayoutMember): string {
  if (member === 'host_messages') return layout.host_messages.length === 0 ? 'none' : 'prepended';
  if (member === 'user_placeholder') return layout.user_placeholder === null ? 'none' : 'inserted';
  if (member === 'non_leading_system') return typeof layout.non_leading_system === 'string' ? layout.non_leading_system : 'user_text';
  return layout[member];
}

/** A layout in one line, e.g. "assistant_turn=before_tool_results, history=session, host_messages=none, pre_model_transform=request". */
export function describeLayout(layout: ConversationLayout): string {
  return LAYOUT_MEMBERS.map((m) => `${m}=${layoutValue(layout, m)}${m === 'host_messages' && layout.host_messages.length > 0 ? ` (${layout.host_messages.length})` : ''}${m === 'user_placeholder' && layout.user_placeholder !== null ? ` (${JSON.stringify(layout.user_placeholder)})` : ''}${m === 'non_leading_system' && typeof layout.non_leading_system !== 'string' ? ` (${JSON.stringify(layout.non_leading_system.prefix)} … ${JSON.stringify(layout.non_leading_system.suffix)})` : ''}`).join(', ');
}

/** True when the layout is the reference loop's own. */
export function isReferenceLayout(layout: ConversationLayout): boolean {
  return LAYOUT_MEMBERS.every((m) => layoutValue(layout, m) === layoutValue(REFERENCE_LAYOUT, m));
}

/**
 * Validates a declared layout, every member left out taking the reference loop's value. `problem` names the member
 * (`/layout/history`) so surface and stdio errors point at it.
 */
export function resolveLayout(value: unknown): { ok: true; layout: ConversationLayout } | { ok: false; member: string; problem: string } {
  if (value === undefined) return { ok: true, layout: { ...REFERENCE_LAYOUT, host_messages: [] } };
  if (!isPlainObject(value)) return { ok: false, member: '', problem: `must be a mapping of ${LAYOUT_MEMBERS.join(', ')}` };
  for (const key of Object.keys(value)) {
    if (!(LAYOUT_MEMBERS as string[]).includes(key)) return { ok: false, member: key, problem: `unknown layout member (known: ${LAYOUT_MEMBERS.join(', ')})` };
  }
  const layout: ConversationLayout = { ...REFERENCE_LAYOUT, host_messages: [] };
  for (const member of ['assistant_turn', 'history', 'pre_model_transform', 'assistant_message', 'external_input', 'tool_error_content', 'null_answer'] as const) {
    const v = value[member];
    if (v === undefined) continue;
    if (!(LAYOUT_GATES[member] as readonly unknown[]).includes(v)) return { ok: false, member, problem: `must be one of ${LAYOUT_GATES[member].join(', ')}` };
    (layout as unknown as Record<string, unknown>)[member] = v;
  }
  const nls = value.non_leading_system;
  if (nls !== undefined) {
    const shape = 'must be "kept", "moved_to_front", or {prefix: string, suffix: string} (sent as user text in that frame)';
    if (nls === 'kept' || nls === 'moved_to_front') layout.non_leading_system = nls;
    else if (isPlainObject(nls) && typeof nls.prefix === 'string' && typeof nls.suffix === 'string' && Object.keys(nls).every((k) => k === 'prefix' || k === 'suffix')) layout.non_leading_system = { prefix: nls.prefix, suffix: nls.suffix };
    else return { ok: false, member: 'non_leading_system', problem: shape };
  }
  const placeholder = value.user_placeholder;
  if (placeholder !== undefined) {
    if (placeholder !== null && typeof placeholder !== 'string') return { ok: false, member: 'user_placeholder', problem: 'must be the content of the user message the host puts first (a string), or null for none' };
    layout.user_placeholder = placeholder;
  }
  const hm = value.host_messages;
  if (hm !== undefined) {
    const shape = 'must be a list of the messages the host puts first in every model request, each {role: string, content: string} ([] for none)';
    if (!Array.isArray(hm)) return { ok: false, member: 'host_messages', problem: shape };
    for (const [i, m] of hm.entries()) {
      if (!isPlainObject(m) || typeof m.role !== 'string' || m.role === '' || typeof m.content !== 'string' || Object.keys(m).some((k) => k !== 'role' && k !== 'content')) {
        return { ok: false, member: `host_messages/${i}`, problem: shape };
      }
    }
    layout.host_messages = (hm as Array<{ role: string; content: string }>).map((m) => ({ role: m.role, content: m.content }));
  }
  return { ok: true, layout };
}

/** A declared layout with the members it leaves out filled from the reference loop's (no validation: see resolveLayout). */
export function effectiveLayout(layout: Partial<ConversationLayout> | undefined): ConversationLayout {
  return { ...REFERENCE_LAYOUT, ...(layout ?? {}) } as ConversationLayout;
}

/** A vector's `layout` gate against the declared layout: the skip reason, or undefined when every gated member agrees. */
export function layoutSkip(gate: Partial<Record<string, string>> | undefined, layout: Partial<ConversationLayout> | undefined): { member: string; reason: string } | undefined {
  if (gate === undefined) return undefined;
  const declared = effectiveLayout(layout);
  for (const [member, wanted] of Object.entries(gate)) {
    const has = layoutValue(declared, member as LayoutMember);
    if (has !== wanted) {
      return { member, reason: `host declares conversation layout ${member}=${has}; the vector depends on ${member}=${wanted}` };
    }
  }
  return undefined;
}

/** The frame a one-member variant sends a non-leading system message in, as user text. */
const VARIANT_SYSTEM_FRAME = { prefix: '[system] ', suffix: '' };

/** The host messages a one-member variant puts first when the layout has none (layoutVariants). */
const VARIANT_HOST_MESSAGES = [{ role: 'system', content: 'You are a careful assistant.' }];

/**
 * Every layout that differs from `layout` in exactly one member, with that member: what a vector's dependence on a
 * member is measured against (a vector that fails on the reference host under a variant depends on that member).
 */
export function layoutVariants(layout: ConversationLayout): Array<{ member: LayoutMember; layout: ConversationLayout }> {
  const out: Array<{ member: LayoutMember; layout: ConversationLayout }> = [];
  for (const member of LAYOUT_MEMBERS) {
    if (member === 'host_messages') out.push({ member, layout: { ...layout, host_messages: layout.host_messages.length === 0 ? VARIANT_HOST_MESSAGES : [] } });
    else if (member === 'user_placeholder') out.push({ member, layout: { ...layout, user_placeholder: layout.user_placeholder === null ? '.' : null } });
    else if (member === 'non_leading_system') {
      for (const value of ['kept', 'moved_to_front', VARIANT_SYSTEM_FRAME] as const) if (layoutValue({ ...layout, non_leading_system: value }, member) !== layoutValue(layout, member)) out.push({ member, layout: { ...layout, non_leading_system: value } });
    }
    else for (const value of LAYOUT_GATES[member] as readonly string[]) if (value !== layout[member]) out.push({ member, layout: { ...layout, [member]: value } });
  }
  return out;
}

/** The members where `layout` differs from the reference loop's, with its values as a vector's gate names them. */
export function layoutDifferences(layout: ConversationLayout): Partial<Record<LayoutMember, string>> {
  const out: Partial<Record<LayoutMember, string>> = {};
  for (const m of LAYOUT_MEMBERS) if (layoutValue(layout, m) !== layoutValue(REFERENCE_LAYOUT, m)) out[m] = layoutValue(layout, m);
  return out;
}
