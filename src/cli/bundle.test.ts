// bin/agent-hooks-ctk.js starts the bundled CLI (dist/cli/, scripts/bundle-cli.mjs). An in-process harness that imports
// the library (agent-hooks-ctk, unbundled dist/src/) then holds a second copy of every class the CTK has: its
// verdicts, records, LosslessNumbers, streams and errors cross from one copy to the other. The CTK must recognize
// them by shape, never by class identity: run over the two copies, the suite gives what the built-in host gives.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../version.js';
import type { ConformanceReport, VectorResult } from '../results/model.js';

const CLI = path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js');

function runReport(dir: string, args: string[]): ConformanceReport {
  const out = path.join(dir, `out-${Math.random().toString(36).slice(2)}`);
  const r = spawnSync(process.execPath, [CLI, 'run', ...args, '--reporter', 'json', '--out', out], { encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`run ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as ConformanceReport;
}

const verdicts = (report: ConformanceReport) => new Map(report.results.map((r: VectorResult) => [r.id, { status: r.status, failures: r.failures, reason: r.reason }]));

t.test('a harness built on the library (a second copy of its classes) gives the built-in reference host\'s results', async (t) => {
  const mtime = (f: string) => statSync(f, { throwIfNoEntry: false })?.mtimeMs;
  const bundled = mtime(path.join(PACKAGE_ROOT, 'dist', 'cli', 'main.js'));
  const compiled = mtime(path.join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'main.js'));
  if (bundled === undefined || (compiled !== undefined && bundled < compiled)) t.comment('the bundle is missing or stale: bin runs dist/src/, a single copy (npm run build bundles)');

  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-bundle-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const library = pathToFileURL(path.join(PACKAGE_ROOT, 'dist', 'src', 'index.js')).href;
  const harness = path.join(dir, 'harness.mjs');
  // The reference host of the library's copy, declaring the exact-number capabilities as well: the vectors' unsafe
  // integers are the CTK copy's LosslessNumbers, and the records come back holding the library copy's.
  writeFileSync(
    harness,
    `import { createReferenceHarness } from ${JSON.stringify(library)};\n` +
      `export function createHarness() {\n` +
      `  const h = createReferenceHarness();\n` +
      `  return {\n` +
      `    describe: async () => { const s = await h.describe(); return { ...s, capabilities: [...s.capabilities, 'int64_json', 'bigint_json'] }; },\n` +
      `    setup: (run) => h.setup(run), run: () => h.run(), teardown: () => h.teardown(), close: async () => { await h.close?.(); },\n` +
      `  };\n` +
      `}\n`,
  );
  const builtIn = verdicts(runReport(dir, []));
  const crossed = verdicts(runReport(dir, ['--harness', harness]));
  t.same([...crossed.keys()].sort(), [...builtIn.keys()].sort(), 'the same vectors');
  const exact = [...crossed].filter(([id]) => builtIn.get(id)!.status === 'skip' && crossed.get(id)!.status !== 'skip').map(([id]) => id);
  t.ok(exact.length >= 2, `the exact-number vectors run over the two copies (${exact.join(', ')})`);
  for (const id of exact) t.equal(crossed.get(id)!.status, 'pass', `${id} passes`);
  for (const [id, r] of builtIn) if (!exact.includes(id)) t.same(crossed.get(id), r, `${id}: as on the built-in host`);
});
