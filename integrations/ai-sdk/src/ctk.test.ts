// The AI SDK integration under the CTK: 100% of the applicable vectors of the project suite and of the published
// samples, every skip one the surface does not declare (with its reason), and reports/claims/ai-sdk current.
import t from 'tap';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { claimStaleness, defaultVectorPaths, loadVectors, runSuite } from 'agent-hooks-ctk';
import { aiSdkSurface, createHarness } from '../ctk-harness.js';

const root = path.dirname(createRequire(import.meta.url).resolve('agent-hooks-ctk/package.json'));
const samples = path.join(root, '..', 'shared', 'sample-vectors');

async function run(paths: string[]) {
  const harness = createHarness();
  try {
    return await runSuite(loadVectors(paths), { harness, surface: aiSdkSurface(), harnessLabel: 'integrations/ai-sdk/ctk-harness', timeoutMs: 30_000 });
  } finally {
    await harness.close?.();
  }
}

t.test('the project suite: every applicable vector passes; skips are only what the surface does not declare', async (t) => {
  const report = await run(defaultVectorPaths());
  const failed = report.results.filter((r) => r.status === 'fail');
  t.same(failed.map((r) => [r.id, r.failures]), [], 'no failures');
  const skipped = report.results.filter((r) => r.status === 'skip');
  const notDeclared = Object.keys(aiSdkSurface().not_declared ?? {});
  for (const s of skipped) t.ok(notDeclared.some((c) => s.reason?.includes(c)), `${s.id} skipped for something the surface says why it lacks: ${s.reason}`);
  t.ok(report.summary.passed >= 170, `${report.summary.passed} passed`);

  const stale = await claimStaleness(path.join(root, 'reports', 'claims', 'ai-sdk', 'report.json'), path.join(root, 'CLAIMS.md'), report);
  t.same(stale, [], 'reports/claims/ai-sdk and its CLAIMS.md row are current (regenerate with `npm run report`)');
});

t.test('the published samples pass verbatim', { skip: existsSync(samples) ? false : `no published samples at ${samples}` }, async (t) => {
  const report = await run([samples]);
  t.equal(report.summary.failed, 0, JSON.stringify(report.results.filter((r) => r.status === 'fail').map((r) => [r.id, r.failures])));
  t.equal(report.summary.passed, report.summary.total, 'every sample ran and passed');
});
