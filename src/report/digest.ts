// Vector and suite digests for reproducible reports. STUB: owned by the reports issue.
import { createHash } from 'node:crypto';

/** "sha256:<hex>" over the vector's canonical JSON bytes. */
export function vectorDigest(vector: unknown): string {
  return 'sha256:' + createHash('sha256').update(JSON.stringify(vector)).digest('hex');
}

/** "sha256:<hex>" over each vector's digest in id order. */
export function suiteDigest(entries: ReadonlyArray<{ id: string; digest: string }>): string {
  const sorted = [...entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return 'sha256:' + createHash('sha256').update(sorted.map((e) => `${e.id} ${e.digest}\n`).join('')).digest('hex');
}
