// §10.2 identity cost by context size, and the alternatives for each dependency, measured side by side.
import * as crypto from 'node:crypto';
import canonicalizePkg from 'canonicalize';
import { canonicalize as jsonCanonicalize } from 'json-canonicalize';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { canonicalize as coreCanonicalize, jcsSha256, projectForIdentity } from '../src/core/index.js';
import type { JsonObject } from '../src/core/types.js';
import { preToolCallContext } from './contexts.js';
import { round, sampleSync } from './stats.js';

export interface IdentityRow {
  bytes: number;
  /** The shipped provider end to end: envelope check, projection, domain check, RFC 8785, SHA-256. */
  us_median: number;
  /** The shipped serializer: §10.2 domain check fused with RFC 8785 output (src/core/canonical.ts). */
  core_canonicalize_us_median: number;
  canonicalize_us_median: number;
  json_canonicalize_us_median: number;
  noble_sha256_us_median: number;
  /** crypto.hash one-shot (what the core uses on Node ≥ 20.12). */
  node_crypto_sha256_us_median: number;
  node_crypto_createhash_us_median: number;
}

const nodeHash = (crypto as unknown as { hash: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

export const IDENTITY_SIZES = [1024, 64 * 1024, 1024 * 1024, 4 * 1024 * 1024];

function samplesFor(bytes: number): { warmup: number; samples: number; batch: number } {
  if (bytes <= 4096) return { warmup: 200, samples: 31, batch: 50 };
  if (bytes <= 128 * 1024) return { warmup: 20, samples: 21, batch: 4 };
  return { warmup: 2, samples: 9, batch: 1 };
}

export function benchIdentity(sizes: readonly number[] = IDENTITY_SIZES): IdentityRow[] {
  return sizes.map((bytes) => {
    const ctx = preToolCallContext(bytes);
    const projection = projectForIdentity(ctx as unknown as JsonObject);
    const text = canonicalizePkg(projection) as string;
    if (text !== jsonCanonicalize(projection) || text !== coreCanonicalize(projection)) throw new Error(`canonicalizers disagree at ${bytes} bytes`);
    const opts = samplesFor(bytes);
    return {
      bytes,
      us_median: round(sampleSync(() => jcsSha256(ctx), opts)),
      core_canonicalize_us_median: round(sampleSync(() => coreCanonicalize(projection), opts)),
      canonicalize_us_median: round(sampleSync(() => canonicalizePkg(projection), opts)),
      json_canonicalize_us_median: round(sampleSync(() => jsonCanonicalize(projection), opts)),
      noble_sha256_us_median: round(sampleSync(() => bytesToHex(sha256(utf8ToBytes(text))), opts)),
      node_crypto_sha256_us_median: round(sampleSync(() => nodeHash('sha256', text, 'hex'), opts)),
      node_crypto_createhash_us_median: round(sampleSync(() => crypto.createHash('sha256').update(text).digest('hex'), opts)),
    };
  });
}
