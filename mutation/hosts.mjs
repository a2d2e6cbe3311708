// The five hosts the mutation suite runs every vector on (mutation/suite.mjs), and which (host, vector) pairs they
// run at all: shared by the suite and by the test that keeps reports/mutation/ current (mutation/report.mjs). All of
// it is imported by relative path from this checkout's build, which inside Stryker's sandbox is the mutated one.
import { loadVectorFile } from '../dist/src/ctk/load.js';
import { skipOf } from '../dist/src/ctk/skip.js';
import { effectiveSurface } from '../dist/src/harness/surface.js';
import { createReferenceHarness } from '../dist/src/harness/reference-harness.js';
import { createHarness as createSessionHost } from './session-host.mjs';

/**
 * The conversation layout of `reference-layout`: every member at a value other than the reference loop's own
 * (layout.ts LAYOUT_GATES), except where a vector's own `layout` gate names a value (layoutFor): the host then
 * declares that value, so every layout-gated vector runs on it, under the very layout it depends on.
 */
const NON_DEFAULT_LAYOUT = {
  assistant_turn: 'before_tool_results',
  history: 'session',
  host_messages: [{ role: 'system', content: 'You are the CTK reference agent.' }],
  pre_model_transform: 'conversation',
  assistant_message: 'content_then_tool_calls',
  external_input: 'user',
  tool_error_content: 'text',
  user_placeholder: '(continue)',
  null_answer: 'empty_text',
  non_leading_system: { prefix: '<system>', suffix: '</system>' },
};

/** NON_DEFAULT_LAYOUT with the values the vector's `layout` gate names (GRAMMAR.md §1; the gate's words for host_messages, user_placeholder and non_leading_system). */
function layoutFor(vector) {
  const layout = { ...NON_DEFAULT_LAYOUT };
  for (const [member, value] of Object.entries(vector.layout ?? {})) {
    if (member === 'host_messages') layout.host_messages = value === 'none' ? [] : NON_DEFAULT_LAYOUT.host_messages;
    else if (member === 'user_placeholder') layout.user_placeholder = value === 'none' ? null : NON_DEFAULT_LAYOUT.user_placeholder;
    else if (member === 'non_leading_system') layout.non_leading_system = value === 'user_text' ? NON_DEFAULT_LAYOUT.non_leading_system : value;
    else layout[member] = value;
  }
  return layout;
}

/** Each host's harness, for one vector (only `reference-layout` depends on it). */
export const HOSTS = {
  reference: () => createReferenceHarness(),
  'reference-incremental': () => createReferenceHarness({ streaming: 'incremental' }),
  // A vector needing text_only_input runs on the session host whose input seam holds text only (it declares that in
  // place of structured_input_content); every other on the one holding objects.
  session: (vector) => createSessionHost({ textOnlyInput: (vector.capabilities ?? []).includes('text_only_input') }),
  'reference-postures': () => createReferenceHarness({ postures: { tool_seam_host_error: 'terminate', stop_approval_fold_truncated: 'always' }, readings: { errored_model_call: 'none' } }),
  'reference-layout': (vector) => createReferenceHarness({ layout: layoutFor(vector) }),
};

/** A vector file as the CTK loads it; a file that does not load is an error of the suite, never a skip. */
export function loadVector(file) {
  const loaded = loadVectorFile(file);
  if ('problem' in loaded) throw new Error(`mutation suite: ${loaded.problem}`);
  return loaded.loaded;
}

/** The host's declared surface, and why it skips the vector (undefined: it runs it), as the CLI would judge them. */
export function judgeSurface(described, lv, host) {
  const surface = effectiveSurface(described, undefined, undefined, `describe() of ${host}`);
  return { surface, skip: skipOf(lv, surface) };
}

/** Why `host` skips the vector of `file`, or undefined when it runs it (a host built afresh, described, closed). */
export async function skipOn(host, file) {
  const lv = loadVector(file);
  const harness = HOSTS[host](lv.vector);
  try {
    return judgeSurface(await harness.describe(), lv, host).skip;
  } finally {
    await harness.close();
  }
}
