// The vectors a report is checked against: every *.json under the given paths, parsed the way the
// runner parses them (lossless numbers), reduced to (id, file, digest). A file that cannot be parsed
// or has no string id is reported, not thrown: to verify-report it is a vector that no longer matches.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse, isSafeNumber, LosslessNumber } from 'lossless-json';
import { vectorDigest } from './digest.js';

export interface VectorFingerprint {
  id: string;
  file: string;
  digest: string;
}

export interface UnreadableVector {
  file: string;
  problem: string;
}

export interface VectorSource {
  vectors: VectorFingerprint[];
  unreadable: UnreadableVector[];
}

export class VectorDirError extends Error {
  constructor(readonly target: string, detail: string) {
    super(`${target}: ${detail}`);
    this.name = 'VectorDirError';
  }
}

/** Fingerprints every vector file under `paths` (files or directories, recursive, *.json). */
export function fingerprintVectors(paths: readonly string[]): VectorSource {
  const files: string[] = [];
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch {
      throw new VectorDirError(p, 'no such file or directory (give the vector directory the report was run against)');
    }
    files.push(...(st.isDirectory() ? walk(p) : [p]));
  }
  const vectors: VectorFingerprint[] = [];
  const unreadable: UnreadableVector[] = [];
  for (const file of [...new Set(files)]) {
    const shown = display(file);
    let value: unknown;
    try {
      value = parse(readFileSync(file, 'utf8'), null, (n: string) => (isSafeNumber(n) ? Number(n) : new LosslessNumber(n)));
    } catch (error) {
      unreadable.push({ file: shown, problem: `not valid JSON (${(error as Error).message})` });
      continue;
    }
    const id = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as { id?: unknown }).id : undefined;
    if (typeof id !== 'string') {
      unreadable.push({ file: shown, problem: 'no string "id" member' });
      continue;
    }
    try {
      vectors.push({ id, file: shown, digest: vectorDigest(value) });
    } catch (error) {
      unreadable.push({ file: shown, problem: (error as Error).message });
    }
  }
  return { vectors, unreadable };
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full));
    else if (entry.isFile() && entry.name.endsWith('.json')) out.push(full);
  }
  return out;
}

function display(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel === '' || rel.startsWith('..') ? file : rel;
}
