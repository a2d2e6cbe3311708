// The vectors a report is checked against: the runner's own file discovery and lossless parse
// (src/ctk/load.ts, src/ctk/json.ts), reduced to (id, file, digest). Deliberately no schema check:
// a file that no longer parses or has no string id is reported, not thrown, because to verify-report
// it is a vector that no longer matches (exit 1), not bad input.
import { display, findVectorFiles, readVectorJson, VectorLoadError } from './load.js';
import { vectorDigest } from '../results/digest.js';

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
  constructor(detail: string) {
    super(detail);
    this.name = 'VectorDirError';
  }
}

/** Fingerprints every vector file under `paths` (files or directories, recursive, *.json). */
export function fingerprintVectors(paths: readonly string[]): VectorSource {
  let files: string[];
  try {
    files = findVectorFiles(paths);
  } catch (error) {
    if (error instanceof VectorLoadError) throw new VectorDirError(`${error.message} (give the vector directory the report was run against)`);
    throw error;
  }
  const vectors: VectorFingerprint[] = [];
  const unreadable: UnreadableVector[] = [];
  for (const file of files) {
    const shown = display(file);
    // The runner's own reader (strict UTF-8, BOM ignored, lossless numbers), so verify-report reads what run ran.
    const read = readVectorJson(file);
    if ('problem' in read) {
      unreadable.push({ file: shown, problem: read.problem.startsWith(`${shown}: `) ? read.problem.slice(shown.length + 2) : read.problem });
      continue;
    }
    const value = read.value;
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
