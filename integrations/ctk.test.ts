// Every registered integration under the CTK: 100% of the applicable vectors of the project suite and of the
// published samples, every skip one its surface says why it lacks, and reports/claims/<name> with its CLAIMS.md row
// current. An integration whose framework needs a newer Node is skipped here, with that reason.
import t from 'tap';
import { checkFrameworkHarness, type Harness } from 'agent-hooks-ctk';
import { FRAMEWORKS, unsupported } from './frameworks.js';

for (const fw of FRAMEWORKS) {
  t.test(`${fw.name}: every applicable vector passes, ours and the published samples, and its claim is current`, { skip: unsupported(fw) }, async (t) => {
    const specifier: string = `${fw.package}/ctk-harness`; // by name, as a user's CTK run loads it
    const { createHarness } = (await import(specifier)) as { createHarness: () => Harness };
    const check = await checkFrameworkHarness(fw.name, createHarness, await createHarness().describe());
    t.same(check.failed, [], 'no vector of the project suite fails');
    t.same(check.unexplainedSkips, [], 'every skip is something the surface declares it lacks, and why');
    t.ok(check.passed >= 170, `${check.passed} vectors passed`);
    t.same(check.stale, [], `reports/claims/${fw.name} and its CLAIMS.md row are current (regenerate with \`npm run report\`)`);
    if ('skipped' in check.samples) t.comment(check.samples.skipped);
    else {
      t.same(check.samples.failed, [], 'no published sample fails');
      t.equal(check.samples.passed, check.samples.total, 'every published sample ran and passed');
    }
  });
}
