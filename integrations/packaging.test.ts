// The packages as a user installs them: `npm pack` the CTK and every registered integration, install the tarballs
// into an empty project (offline: from the npm cache `npm ci` filled, with a lockfile holding exactly what the
// packages declare, so an undeclared dependency is missing there as it would be for a user), import every package by
// name, and run the CLI and each integration's harness from that project. No network at test time.
import t, { type Test } from 'tap';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FRAMEWORKS, unsupported } from './frameworks.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..'); // dist/integrations/ → the repository
const STACK = /\n\s+at .+:\d+:\d+\)?\n/;

type Manifest = { name: string; version: string; dependencies?: Record<string, string>; optionalDependencies?: Record<string, string>; peerDependencies?: Record<string, string>; peerDependenciesMeta?: Record<string, { optional?: boolean }>; [k: string]: unknown };
type LockEntry = Record<string, unknown> & { version?: string; link?: boolean; dependencies?: Record<string, string>; optionalDependencies?: Record<string, string>; peerDependencies?: Record<string, string>; peerDependenciesMeta?: Record<string, { optional?: boolean }> };

/** The child's environment: no npm_* variables of the surrounding `npm test`, offline, and this Node first on PATH. */
function env(): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) out[k] = v;
  out.PATH = `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`;
  out.npm_config_offline = 'true';
  out.npm_config_audit = 'false';
  out.npm_config_fund = 'false';
  out.npm_config_update_notifier = 'false';
  return out;
}

function sh(cmd: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, env: env(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 300_000 });
}

/** Asserts a command exited 0; on failure the message carries the end of what it printed. */
function succeeded(t: Test, r: SpawnSyncReturns<string>, what: string): boolean {
  const detail = r.status === 0 ? '' : ` (exit ${r.status}${r.error ? `, ${r.error.message}` : ''}):\n${(r.stderr ?? '').slice(-3000)}\n${(r.stdout ?? '').slice(-1500)}`;
  return t.equal(r.status, 0, what + detail);
}

/** `npm pack` one package of the repository (the build already ran); its tarball's file name and integrity. */
function pack(dest: string, workspace?: string): { file: string; integrity: string } {
  const r = sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dest, ...(workspace ? ['-w', workspace] : [])], REPO);
  if (r.status !== 0) throw new Error(`npm pack ${workspace ?? '(the CTK)'} failed (exit ${r.status}): ${r.stderr}`);
  const [info] = JSON.parse(r.stdout) as Array<{ filename: string; integrity: string }>;
  return { file: info!.filename.replace(/^@/, '').replace(/\//g, '-'), integrity: info!.integrity };
}

function manifestIn(tarball: string): Manifest {
  const r = spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`cannot read package.json in ${tarball}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Manifest;
}

/** Node's resolution in the repository's tree: the nearest node_modules/<dep> above `source` (a lockfile path). */
function resolveIn(packages: Record<string, LockEntry>, source: string, dep: string): string | undefined {
  for (let dir = source; ; ) {
    const candidate = dir === '' ? `node_modules/${dep}` : `${dir}/node_modules/${dep}`;
    if (packages[candidate] && !packages[candidate]!.link) return candidate;
    if (dir === '') return undefined;
    const up = dir.lastIndexOf('/node_modules/');
    dir = up >= 0 ? dir.slice(0, up) : '';
  }
}

/**
 * The installed tree for `roots` (our packages, at node_modules/<name>, each with where its own dependencies sit in
 * the repository's lockfile): every package reachable through what is declared, at the version and path the
 * repository's `npm ci` installed, so `npm ci --offline` finds each tarball in the cache.
 */
function lockTree(roots: Array<{ name: string; manifest: Manifest; resolved: string; integrity: string; sourceDir: string }>): Record<string, unknown> {
  const lock = JSON.parse(readFileSync(path.join(REPO, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const packages: Record<string, unknown> = {};
  const where = new Map<string, string>(); // installed path → its path in the repository's lockfile
  const ours = new Set(roots.map((r) => r.name));
  const toInstalled = (source: string): string => {
    for (const r of roots) if (r.sourceDir !== '' && source.startsWith(`${r.sourceDir}/`)) return `node_modules/${r.name}/${source.slice(r.sourceDir.length + 1)}`;
    return source;
  };
  const queue: Array<{ from: string; source: string; entry: LockEntry; optionalOnly: boolean }> = [];
  for (const r of roots) {
    const { name, version, license, dependencies, optionalDependencies, peerDependencies, peerDependenciesMeta, bin, engines } = r.manifest;
    packages[`node_modules/${name}`] = { version, resolved: r.resolved, integrity: r.integrity, license, dependencies, optionalDependencies, peerDependencies, peerDependenciesMeta, bin, engines };
    queue.push({ from: `node_modules/${name}`, source: r.sourceDir, entry: r.manifest as LockEntry, optionalOnly: false });
  }
  const optionalOnly = new Map<string, boolean>();
  while (queue.length > 0) {
    const { from, source, entry, optionalOnly: viaOptional } = queue.shift()!;
    const edges: Array<[string, boolean]> = [
      ...Object.keys(entry.dependencies ?? {}).map((d): [string, boolean] => [d, viaOptional]),
      ...Object.keys(entry.optionalDependencies ?? {}).map((d): [string, boolean] => [d, true]),
      ...Object.keys(entry.peerDependencies ?? {}).map((d): [string, boolean] => [d, viaOptional || entry.peerDependenciesMeta?.[d]?.optional === true]),
    ];
    for (const [dep, optional] of edges) {
      if (ours.has(dep)) continue; // our own packages are the tarballs, at the top
      const found = resolveIn(lock.packages, source, dep);
      if (!found) {
        if (optional) continue;
        throw new Error(`${from} depends on ${dep}, which the repository's lockfile does not install`);
      }
      const installed = toInstalled(found);
      const seen = optionalOnly.get(installed);
      if (seen === undefined || (seen && !optional)) {
        optionalOnly.set(installed, optional);
        if (seen === undefined) {
          where.set(installed, found);
          queue.push({ from: installed, source: found, entry: lock.packages[found]!, optionalOnly: optional });
        }
      }
    }
  }
  // What the repository nests inside a workspace (its own framework version) a user's install hoists, where free.
  const nested = (p: string) => roots.find((r) => r.sourceDir !== '' && p.startsWith(`node_modules/${r.name}/node_modules/`));
  const placed = new Set([...where.keys()].filter((p) => !nested(p)));
  for (const [installed, source] of where) {
    const { dev: _d, peer: _p, devOptional: _o, optional: _opt, ...entry } = lock.packages[source]!;
    const root = nested(installed);
    const hoisted = root ? installed.slice(`node_modules/${root.name}/`.length) : installed;
    const at = root && !placed.has(hoisted) ? (placed.add(hoisted), hoisted) : installed;
    packages[at] = optionalOnly.get(installed) ? { ...entry, optional: true } : entry;
  }
  return packages;
}

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
