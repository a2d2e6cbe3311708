// The plain-JavaScript harness example (examples/mjs-host/harness.mjs), run as a user runs it: through the
// CLI, loaded by the in-process loader. Every applicable vector passes; the skips name what it does not declare.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from '../version.js';
import { loadInProcessHarness } from './in-process.js';

const HARNESS = path.join(PACKAGE_ROOT, 'examples', 'mjs-host', 'harness.mjs');

t.test('the .mjs harness loads and declares a surface', async (t) => {
  const harness = await loadInProcessHarness(HARNESS);
  const surface = await harness.describe();
  t.equal(surface.name, 'mjs-example-host');
  t.same(surface.identity_providers, ['jcs-sha256', null]);
});

t.test('run --harness examples/mjs-host/harness.mjs passes every applicable vector', async (t) => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'ctk-mjs-'));
  const r = spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js'), 'run', '--harness', HARNESS, '--reporter', 'json', '--out', out], {
    cwd: PACKAGE_ROOT,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  t.equal(r.status, 0, r.stderr);
  const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as {
    results: Array<{ id: string; status: string; reason?: string }>;
  };
  t.same(report.results.filter((x) => x.status === 'fail').map((x) => x.id), [], 'no vector fails');
  const skipped = report.results.filter((x) => x.status === 'skip');
  for (const s of skipped) t.match(s.reason, /^host declares conversation layout |^host does not declare (identity provider ctk-fault|capability int64_json|capability bigint_json|capability incremental_output$|capability message_list_transforms$|capability mock_faults$|capability text_only_input$|capabilities incremental_output, mock_faults$|posture [a-z_]+=[a-z_]+ \(it declares )/, `${s.id}: ${s.reason}`);
  t.ok(report.results.filter((x) => x.status === 'pass').length > 150, 'the suite ran');
});
