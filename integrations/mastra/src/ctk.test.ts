// The Mastra integration under the CTK: 100% of the applicable vectors of the project suite and of the published
// samples, every skip one the surface says why it lacks, and reports/claims/mastra with its CLAIMS.md row current.
// Mastra needs Node >= 22.13: on an older Node this skips, saying so (CI runs it under Node 24, scripts/node24.sh).
import t from 'tap';
import { checkFrameworkHarness } from 'agent-hooks-ctk';
import { mastraNodeUnsupported } from './node.js';

const unsupported = mastraNodeUnsupported();
t.test('the Mastra integration passes every applicable vector, ours and the published samples, and its claim is current', { skip: unsupported ?? false }, async (t) => {
  const { mastraSurface, createHarness } = await import('../ctk-harness.js');
  const check = await checkFrameworkHarness('mastra', createHarness, mastraSurface());
  t.same(check.failed, [], 'no vector of the project suite fails');
  t.same(check.unexplainedSkips, [], 'every skip is something the surface declares it lacks, and why');
  t.ok(check.passed >= 190, `${check.passed} vectors passed`);
  t.same(check.stale, [], 'reports/claims/mastra and its CLAIMS.md row are current (regenerate with `npm run report`)');
  if ('skipped' in check.samples) t.comment(check.samples.skipped);
  else {
    t.same(check.samples.failed, [], 'no published sample fails');
    t.equal(check.samples.passed, check.samples.total, 'every published sample ran and passed');
  }
});
