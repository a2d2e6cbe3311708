// The packages as a user installs them: `npm pack` the CTK and every registered integration, install the tarballs
// into an empty project (offline: from the npm cache `npm ci` filled, with a lockfile holding exactly what the
// packages declare, so an undeclared dependency is missing there as it would be for a user), import every package by
// name, and run the CLI and each integration's harness from that project. No network at test time.
import t from 'tap';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FRAMEWORKS, unsupported } from './frameworks.js';
import { lockTree, manifestIn, pack, sh, STACK, succeeded } from './install-tree.js';

t.test('packed tarballs install into an empty project; every package imports by name; the CLI and the harnesses run there', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-ctk-pack-'));
  if (!process.env.PACK_CHECK_KEEP) t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const tarballs = path.join(dir, 'tarballs');
  mkdirSync(tarballs);
  const project = path.join(dir, 'project');
  mkdirSync(project);

  const ctk = pack(tarballs);
  const integrations = FRAMEWORKS.map((fw) => ({ fw, ...pack(tarballs, fw.package) }));
  const roots = [{ name: 'agent-hooks-ctk', ...ctk, sourceDir: '' }, ...integrations.map((i) => ({ name: i.fw.package, ...i, sourceDir: `integrations/${i.fw.name}` }))].map((r) => ({
    name: r.name,
    manifest: manifestIn(path.join(tarballs, r.file)),
    resolved: `file:../tarballs/${r.file}`,
    integrity: r.integrity,
    sourceDir: r.sourceDir,
  }));
  for (const r of roots) {
    t.notOk(r.manifest.private, `${r.name} is not private`);
    t.notOk(Object.values({ ...r.manifest.dependencies, ...r.manifest.peerDependencies }).some((v) => /^(file|link|workspace):/.test(v)), `${r.name} depends on nothing by path`);
  }
  // Each package states in engines the Node its registry row names (a row without one: the CTK's own floor).
  const ctkEngines = (roots[0]!.manifest.engines as { node?: string } | undefined)?.node;
  for (const i of integrations) {
    const engines = (roots.find((r) => r.name === i.fw.package)!.manifest.engines as { node?: string } | undefined)?.node;
    t.equal(engines, i.fw.node ? `>=${i.fw.node.version}` : ctkEngines, `${i.fw.package}: engines.node matches integrations/frameworks.ts`);
  }
  // The user's project: our packages and the frameworks they take as peers (at the versions the repository tests).
  const lock = lockTree(roots);
  const dependencies: Record<string, string> = {};
  for (const r of roots) dependencies[r.name] = `file:../tarballs/${path.basename(String((lock[`node_modules/${r.name}`] as { resolved: string }).resolved))}`;
  for (const r of roots.slice(1)) {
    for (const [peer, meta] of Object.entries(r.manifest.peerDependencies ?? {})) {
      if (peer === 'agent-hooks-ctk' || r.manifest.peerDependenciesMeta?.[peer]?.optional) continue;
      dependencies[peer] = (lock[`node_modules/${peer}`] as { version: string } | undefined)?.version ?? meta;
    }
  }
  const manifest = { name: 'pack-check', version: '0.0.0', private: true, type: 'module', dependencies };
  writeFileSync(path.join(project, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(path.join(project, 'package-lock.json'), JSON.stringify({ name: 'pack-check', version: '0.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'pack-check', version: '0.0.0', dependencies }, ...lock } }, null, 2));

  // npm and npx, found on PATH, run on this Node (under scripts/node24.sh: Node 24, first on PATH), and so does the CLI they start.
  const npmVersions = sh('npm', ['version', '--json'], project);
  succeeded(t, npmVersions, 'npm version');
  t.equal((JSON.parse(npmVersions.stdout || '{}') as { node?: string }).node, process.versions.node, `npm runs on this Node (${process.versions.node})`);
  if (!succeeded(t, sh('npm', ['ci', '--ignore-scripts'], project), 'npm ci --offline of the tarballs')) return;
  const tree = sh('npm', ['ls', '--all'], project);
  succeeded(t, tree, `npm ls: every declared dependency and peer is there, at a version in range`);

  const runnable = integrations.filter((i) => !unsupported(i.fw));
  for (const i of integrations) if (unsupported(i.fw)) t.comment(`skipped: ${unsupported(i.fw)}`);
  const specifiers = ['agent-hooks-ctk', 'agent-hooks-ctk/host', 'agent-hooks-ctk/core', ...runnable.flatMap((i) => [i.fw.package, `${i.fw.package}/ctk-harness`])];
  const imported = sh(process.execPath, ['--input-type=module', '-e', `for (const s of ${JSON.stringify(specifiers)}) { const m = await import(s); if (Object.keys(m).length === 0) throw new Error(s + ' exports nothing'); }`], project);
  succeeded(t, imported, `import by name: ${specifiers.join(', ')}`);

  const run = sh('npx', ['agent-hooks-ctk', 'run', '--reporter', 'json', '--out', 'out'], project);
  succeeded(t, run, `npx agent-hooks-ctk run (the package's own vectors, the reference host)`);
  t.notMatch(run.stderr, STACK, 'no stack trace');
  if (run.status === 0) {
    const report = JSON.parse(readFileSync(path.join(project, 'out', 'report.json'), 'utf8')) as { environment?: { node?: string } };
    t.equal(report.environment?.node, process.version, `the CLI npx started ran on this Node (${process.version})`);
  }
  const verify = sh('npx', ['agent-hooks-ctk', 'verify-report', 'out/report.json'], project);
  succeeded(t, verify, `verify-report against the package's own vectors, found by default`);
  const claim = sh('npx', ['agent-hooks-ctk', 'claim', 'out/report.json', '--vectors'], project);
  succeeded(t, claim, `claim --vectors (the package's own)`);

  for (const i of runnable) {
    const harness = path.join('node_modules', i.fw.package, 'dist', 'ctk-harness.js');
    const r = sh('npx', ['agent-hooks-ctk', 'run', '--harness', harness, '--reporter', 'json', '--out', `out-${i.fw.name}`], project);
    succeeded(t, r, `npx agent-hooks-ctk run --harness ${harness}`);
    t.notMatch(r.stderr, STACK, `${i.fw.name}: no stack trace`);
  }
  t.ok(runnable.length > 0, 'at least one integration ran from the installed tarballs on this Node');
});
