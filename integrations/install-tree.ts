// Installing the packed packages as a user would, offline: `npm pack` a package of the repository, and the lockfile
// of a user's project holding exactly what the packages declare (each at the version and path the repository's
// `npm ci` installed, so `npm ci --offline` finds every tarball in the cache). packaging.test.ts and
// install-outside.test.ts use it. No network.
import type { Test } from 'tap';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..'); // dist/integrations/ → the repository
export const STACK = /\n\s+at .+:\d+:\d+\)?\n/;

export type Manifest = { name: string; version: string; dependencies?: Record<string, string>; optionalDependencies?: Record<string, string>; peerDependencies?: Record<string, string>; peerDependenciesMeta?: Record<string, { optional?: boolean }>; [k: string]: unknown };
export type LockEntry = Record<string, unknown> & { version?: string; link?: boolean; dependencies?: Record<string, string>; optionalDependencies?: Record<string, string>; peerDependencies?: Record<string, string>; peerDependenciesMeta?: Record<string, { optional?: boolean }> };

/** The child's environment: no npm_* variables of the surrounding `npm test`, offline, and this Node first on PATH. */
export function env(): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) out[k] = v;
  out.PATH = `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`;
  out.npm_config_offline = 'true';
  out.npm_config_audit = 'false';
  out.npm_config_fund = 'false';
  out.npm_config_update_notifier = 'false';
  return out;
}

export function sh(cmd: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, env: env(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 300_000 });
}

/** Asserts a command exited 0; on failure the message carries the end of what it printed. */
export function succeeded(t: Test, r: SpawnSyncReturns<string>, what: string): boolean {
  const detail = r.status === 0 ? '' : ` (exit ${r.status}${r.error ? `, ${r.error.message}` : ''}):\n${(r.stderr ?? '').slice(-3000)}\n${(r.stdout ?? '').slice(-1500)}`;
  return t.equal(r.status, 0, what + detail);
}

/** `npm pack` one package of the repository (the build already ran); its tarball's file name and integrity. */
export function pack(dest: string, workspace?: string): { file: string; integrity: string } {
  const r = sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dest, ...(workspace ? ['-w', workspace] : [])], REPO);
  if (r.status !== 0) throw new Error(`npm pack ${workspace ?? '(the CTK)'} failed (exit ${r.status}): ${r.stderr}`);
  const [info] = JSON.parse(r.stdout) as Array<{ filename: string; integrity: string }>;
  return { file: info!.filename.replace(/^@/, '').replace(/\//g, '-'), integrity: info!.integrity };
}

export function manifestIn(tarball: string): Manifest {
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
export function lockTree(roots: Array<{ name: string; manifest: Manifest; resolved: string; integrity: string; sourceDir: string }>): Record<string, unknown> {
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
