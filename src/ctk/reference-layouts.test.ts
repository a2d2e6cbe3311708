// The conversation layout (HostSurface.layout, harness/layout.ts): the spec leaves the message list to the host, so
// the suite must hold under any declared layout. The reference host runs under each non-default value of every
// member (and all of them at once) and passes every applicable vector; a layout-gated vector is skipped, its reason
// naming the layout, exactly under the layout it does not depend on.
import t from 'tap';
import path from 'node:path';
import { loadVectors } from './load.js';
import { runSuite } from './runner.js';
import { createReferenceHarness } from '../harness/reference-harness.js';
import { LAYOUT_GATES, LAYOUT_MEMBERS, layoutValue, effectiveLayout } from '../harness/layout.js';
import type { ConversationLayout } from '../host/loop.js';

const suite = loadVectors([path.resolve('vectors')]);

/** One non-default layout per member value, and one with every member off its default. */
const LAYOUTS: Array<Partial<ConversationLayout>> = [];
for (const member of LAYOUT_MEMBERS) {
  for (const value of LAYOUT_GATES[member].slice(1)) {
    if (member === 'host_messages') LAYOUTS.push({ host_messages: [{ role: 'system', content: 'You are a careful agent.' }] });
    else if (member === 'user_placeholder') LAYOUTS.push({ user_placeholder: '.' });
    else if (member === 'non_leading_system' && value === 'user_text') LAYOUTS.push({ non_leading_system: { prefix: '<system>', suffix: '</system>' } });
    else LAYOUTS.push({ [member]: value } as Partial<ConversationLayout>);
  }
}
LAYOUTS.push({
  assistant_turn: 'before_tool_results', assistant_message: 'content_then_tool_calls', history: 'session', pre_model_transform: 'conversation',
  external_input: 'user', tool_error_content: 'text', host_messages: [{ role: 'system', content: 'Be brief.' }], user_placeholder: '.',
});

for (const layout of LAYOUTS) {
  t.test(`the reference host under layout ${JSON.stringify(layout)} passes every applicable vector`, async (t) => {
    const harness = createReferenceHarness({ layout });
    const surface = await harness.describe();
    t.same(effectiveLayout(surface.layout), effectiveLayout(layout), 'describe() declares the layout it runs under');
    const report = await runSuite(suite, { harness, surface, harnessLabel: 'layouts-test', timeoutMs: 10_000 });
    t.equal(report.summary.failed, 0, report.results.filter((r) => r.status === 'fail').map((r) => `${r.id}: ${r.reason}`).join('\n'));
    t.ok(report.summary.passed > 150, `${report.summary.passed} passed`);
    for (const lv of suite.filter((x) => x.vector.layout !== undefined)) {
      const applies = Object.entries(lv.vector.layout!).every(([m, v]) => layoutValue(effectiveLayout(layout), m as never) === v);
      const r = report.results.find((x) => x.id === lv.vector.id)!;
      if (applies) t.equal(r.status, 'pass', `${r.id} runs under this layout`);
      else t.match(r, { status: 'skip', reason: /^host declares conversation layout \w+=\w+; the vector depends on / }, `${r.id} is skipped, naming the layout`);
    }
  });
}

t.test('the suite has a layout-gated vector, and every member a vector gates on is a layout member', async (t) => {
  const gated = suite.filter((lv) => lv.vector.layout !== undefined);
  t.ok(gated.length > 0);
  for (const lv of gated) for (const m of Object.keys(lv.vector.layout!)) t.ok((LAYOUT_MEMBERS as string[]).includes(m), `${lv.vector.id}: ${m}`);
});
