// How to start the CTK (and tsx) from a given directory, for the next-step line `init` prints: the kit is not on the
// npm registry, so `npx agent-hooks-ctk` works only where npx finds the package installed (it would ask the
// registry otherwise). Mirrors npx's own lookup: a node_modules/.bin in the directory or one above it, then PATH.
import { createRequire } from 'node:module';
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../version.js';

export interface InvocationOptions {
  /** The directory the command will run in. */
  readonly cwd: string;
  /** The PATH to search (default process.env.PATH). */
  readonly pathEnv?: string;
  /** The running kit's package root (default the one this module is in). */
  readonly packageRoot?: string;
}

const isFile = (file: string): boolean => statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
const real = (file: string): string | null => {
  try {
    return realpathSync(file);
  } catch {
    return null;
  }
};

/** A word as a POSIX shell (and the CTK's --harness-cmd splitter) reads it: quoted only when it has to be. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The node_modules/.bin/NAME npx would find from `cwd` (the directory or an ancestor), if any. */
export function localBin(cwd: string, name: string): string | null {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const bin = path.join(dir, 'node_modules', '.bin', name);
    if (isFile(bin)) return bin;
    if (path.dirname(dir) === dir) return null;
  }
}

/** The command that starts this kit's CLI in `cwd`: `npx agent-hooks-ctk` where npx finds it, `agent-hooks-ctk`
 * where PATH holds this very kit (a global install), else `node <this kit's bin>` by its absolute path. */
export function ctkInvocation(options: InvocationOptions): string {
  if (localBin(options.cwd, 'agent-hooks-ctk') !== null) return 'npx agent-hooks-ctk';
  const root = options.packageRoot ?? PACKAGE_ROOT;
  const ownBin = path.join(root, 'bin', 'agent-hooks-ctk.js');
  const own = real(ownBin);
  for (const dir of (options.pathEnv ?? process.env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const onPath = path.join(dir, 'agent-hooks-ctk');
    if (own !== null && isFile(onPath) && real(onPath) === own) return 'agent-hooks-ctk';
  }
  return `node ${shellWord(ownBin)}`;
}

/** The command that runs a TypeScript file in `cwd`: `npx tsx` where npx finds tsx, else the tsx this kit depends on. */
export function tsxInvocation(options: InvocationOptions): string {
  if (localBin(options.cwd, 'tsx') !== null) return 'npx tsx';
  const root = options.packageRoot ?? PACKAGE_ROOT;
  try {
    return `node ${shellWord(createRequire(path.join(root, 'package.json')).resolve('tsx/cli'))}`;
  } catch {
    return 'npx tsx'; // the kit's own tsx is missing (a broken install): npx is the user's best chance
  }
}
