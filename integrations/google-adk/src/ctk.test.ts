// The Google ADK integration under the CTK: 100% of the applicable vectors of the project suite and of the published
// samples, every skip one the surface says why it lacks, and reports/claims/google-adk with its CLAIMS.md row current.
import t from 'tap';
import { checkFrameworkHarness } from 'agent-hooks-ctk';
import { googleAdkSurface, createHarness } from '../ctk-harness.js';

t.test('the Google ADK integration passes every applicable vector, ours and the published samples, and its claim is current', async (t) => {
  const check = await checkFrameworkHarness('google-adk', createHarness, googleAdkSurface());
  t.same(check.failed, [], 'no vector of the project suite fails');
  t.same(check.unexplainedSkips, [], 'every skip is something the surface declares it lacks, and why');
  t.ok(check.passed >= 180, `${check.passed} vectors passed`);
  t.same(check.stale, [], 'reports/claims/google-adk and its CLAIMS.md row are current (regenerate with `npm run report`)');
  if ('skipped' in check.samples) t.comment(check.samples.skipped);
  else {
    t.same(check.samples.failed, [], 'no published sample fails');
    t.equal(check.samples.passed, check.samples.total, 'every published sample ran and passed');
  }
});
