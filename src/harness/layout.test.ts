// The declared conversation layout: validation (defaults filled, a bad member named), the gate a vector states.
import t from 'tap';
import { REFERENCE_LAYOUT, describeLayout, isReferenceLayout, layoutSkip, layoutValue, layoutVariants, resolveLayout, type ConversationLayout } from './layout.js';
import { validateSurface } from './surface.js';
import { checkSurface } from './stdio/validate.js';
import { referenceSurface } from './reference-harness.js';

const base = { name: 'h', version: '1', profiles: { 'sequential/first_deny': {} } };

t.test('a layout left out, or partly given, is filled with the reference loop layout', async (t) => {
  t.same(validateSurface(base, 's').layout, REFERENCE_LAYOUT);
  const s = validateSurface({ ...base, layout: { assistant_turn: 'before_tool_results', host_messages: [{ role: 'system', content: 'Be brief.' }] } }, 's');
  t.same(s.layout, { ...REFERENCE_LAYOUT, assistant_turn: 'before_tool_results', host_messages: [{ role: 'system', content: 'Be brief.' }] });
  t.ok(isReferenceLayout(resolveLayout(undefined).ok ? REFERENCE_LAYOUT : REFERENCE_LAYOUT));
  t.match(describeLayout(s.layout as never), /assistant_turn=before_tool_results, history=turn, host_messages=prepended \(1\)/);
  t.same(referenceSurface().layout, REFERENCE_LAYOUT, 'the reference host declares its own');
});

t.test('a bad layout is a surface error naming the member, in-process and over stdio', async (t) => {
  t.throws(() => validateSurface({ ...base, layout: { history: 'forever' } }, 'x.yaml'), /x\.yaml: \/layout\/history: must be one of turn, session, answers, incorporated/);
  t.throws(() => validateSurface({ ...base, layout: { order: 'x' } }, 'x.yaml'), /\/layout\/order: unknown layout member/);
  t.throws(() => validateSurface({ ...base, layout: { host_messages: [{ role: 'system' }] } }, 'x.yaml'), /\/layout\/host_messages\/0: must be a list/);
  t.throws(() => validateSurface({ ...base, layout: { user_placeholder: 3 } }, 'x.yaml'), /\/layout\/user_placeholder: must be the content/);
  const stdio = checkSurface({ ...base, protocol: 'agent-hooks-ctk/1', capabilities: [], identity_providers: ['jcs-sha256'], modes: ['enforce'], layout: { assistant_turn: 'sideways' } });
  t.match(stdio, { ok: false, problem: /describe\.layout\.assistant_turn must be one of after_tool_results, before_tool_results/ });
  const ok = checkSurface({ ...base, protocol: 'agent-hooks-ctk/1', capabilities: [], identity_providers: ['jcs-sha256'], modes: ['enforce'], layout: { history: 'session' } });
  t.match(ok, { ok: true, value: { layout: { history: 'session', assistant_turn: 'after_tool_results' } } });
});

t.test('a layout-gated vector is skipped under another layout, the reason naming the member and both values', async (t) => {
  t.equal(layoutSkip(undefined, REFERENCE_LAYOUT), undefined);
  t.equal(layoutSkip({ host_messages: 'none' }, REFERENCE_LAYOUT), undefined);
  t.same(layoutSkip({ host_messages: 'none' }, { host_messages: [{ role: 'system', content: 'x' }] }), {
    member: 'host_messages',
    reason: 'host declares conversation layout host_messages=prepended; the vector depends on host_messages=none',
  });
  t.same(layoutSkip({ assistant_turn: 'after_tool_results' }, { assistant_turn: 'before_tool_results' })?.member, 'assistant_turn');
});

t.test('non_leading_system: kept, moved_to_front or a user-text frame; the gate names the frame user_text', async (t) => {
  const framed = resolveLayout({ non_leading_system: { prefix: '<system>', suffix: '</system>' } });
  t.ok(framed.ok);
  if (framed.ok) {
    t.same(framed.layout.non_leading_system, { prefix: '<system>', suffix: '</system>' });
    t.equal(layoutValue(framed.layout, 'non_leading_system'), 'user_text');
    t.match(describeLayout(framed.layout), /non_leading_system=user_text \("<system>" … "<\/system>"\)/);
    t.equal(layoutSkip({ non_leading_system: 'user_text' }, framed.layout), undefined);
    t.match(layoutSkip({ non_leading_system: 'kept' }, framed.layout)?.reason, /non_leading_system=user_text; the vector depends on non_leading_system=kept/);
  }
  const moved = resolveLayout({ non_leading_system: 'moved_to_front' });
  t.ok(moved.ok && moved.layout.non_leading_system === 'moved_to_front');
  for (const bad of ['user_text', { prefix: '<s>' }, { prefix: 1, suffix: '' }, { prefix: '', suffix: '', role: 'user' }]) {
    const r = resolveLayout({ non_leading_system: bad });
    t.match(r, { ok: false, member: 'non_leading_system' }, `${JSON.stringify(bad)} is refused`);
  }
  const variants = layoutVariants(resolveLayout(undefined).ok ? (resolveLayout(undefined) as { layout: ConversationLayout }).layout : ({} as ConversationLayout)).filter((v) => v.member === 'non_leading_system');
  t.same(variants.map((v) => layoutValue(v.layout, 'non_leading_system')), ['moved_to_front', 'user_text'], 'the one-member variants of the default layout');
});
