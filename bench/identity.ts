// §10.2 identity cost by context size, and the alternatives for each dependency, measured side by side.
import * as crypto from 'node:crypto';
import canonicalizePkg from 'canonicalize';
import { canonicalize as jsonCanonicalize } from 'json-canonicalize';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { canonicalize as coreCanonicalize, jcsSha256, projectForIdentity } from '../src/core/index.js';
import type { JsonObject } from '../src/core/types.js';
import { preToolCallContext } from './contexts.js';
import { round, sampleSync, sampleSyncPair } from './stats.js';

export interface IdentityRow {
  bytes: number;
  /** The shipped provider end to end: envelope check, projection, domain check, RFC 8785, SHA-256. */
  us_median: number;
  /** The floor: JSON.stringify of the same context plus one SHA-256 of it (crypto.hash). */
  floor_us_median: number;
  /** us_median / floor_us_median (the same context, measured side by side). */
  floor_ratio: number;
  /**
   * The same two on a copy of the context that shares no subtree (as parsed from the wire: `target` and the field
   * it aliases are two equal objects, not one object twice, §4.3), and their ratio.
   */
  unshared_us_median: number;
  unshared_floor_us_median: number;
  unshared_floor_ratio: number;
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
  return { warmup: 3, samples: 11, batch: 1 };
}

export function benchIdentity(sizes: readonly number[] = IDENTITY_SIZES): IdentityRow[] {
  return sizes.map((bytes) => {
    const ctx = preToolCallContext(bytes);
    const projection = projectForIdentity(ctx as unknown as JsonObject);
    const text = canonicalizePkg(projection) as string;
    if (text !== jsonCanonicalize(projection) || text !== coreCanonicalize(projection)) throw new Error(`canonicalizers disagree at ${bytes} bytes`);
    const unshared = JSON.parse(JSON.stringify(ctx)) as typeof ctx;
    if (jcsSha256(unshared) !== jcsSha256(ctx)) throw new Error(`identity differs between shared and unshared contexts at ${bytes} bytes`);
    const opts = samplesFor(bytes);
    // Interleaved: the provider and its floor alternate sample by sample, so drift falls on both alike.
    const [us, floor] = sampleSyncPair(() => jcsSha256(ctx), () => nodeHash('sha256', JSON.stringify(ctx), 'hex'), opts);
    const [unsharedUs, unsharedFloor] = sampleSyncPair(() => jcsSha256(unshared), () => nodeHash('sha256', JSON.stringify(unshared), 'hex'), opts);
    return {
      bytes,
      us_median: round(us),
      floor_us_median: round(floor),
      floor_ratio: round(us / floor),
      unshared_us_median: round(unsharedUs),
      unshared_floor_us_median: round(unsharedFloor),
      unshared_floor_ratio: round(unsharedUs / unsharedFloor),
      core_canonicalize_us_median: round(sampleSync(() => coreCanonicalize(projection), opts)),
      canonicalize_us_median: round(sampleSync(() => canonicalizePkg(projection), opts)),
      json_canonicalize_us_median: round(sampleSync(() => jsonCanonicalize(projection), opts)),
      noble_sha256_us_median: round(sampleSync(() => bytesToHex(sha256(utf8ToBytes(text))), opts)),
      node_crypto_sha256_us_median: round(sampleSync(() => nodeHash('sha256', text, 'hex'), opts)),
      node_crypto_createhash_us_median: round(sampleSync(() => crypto.createHash('sha256').update(text).digest('hex'), opts)),
    };
  });
}
