// What a run selects from the loaded suite: the filters (--grep, --part, --exclude-grep, --exclude-part,
// --capability), then the shard (--shard i/n, src/ctk/shard.ts) of what they leave, and the report's account of it
// (SuiteSelection: a claim covers the whole suite, so it refuses a narrowed report; `merge` checks shards by it).
import { CAPABILITIES } from '../harness/contract.js';
import type { SuiteSelection } from '../results/model.js';
import { suiteDigest } from '../results/digest.js';
import { inPart, selectVectors, type VectorFilters } from './load.js';
import { shardOf, type Shard } from './shard.js';
import type { LoadedVector } from './vector.js';

export interface SuiteFilters {
  grep?: string;
  parts?: string[];
  excludeGrep?: string;
  excludeParts?: string[];
  capabilities?: string[];
  shard?: Shard;
}

/** A filter that cannot be applied (a bad regular expression, an unknown capability or part, too many shards). */
export class SelectionError extends Error {
  constructor(
    readonly flag: string,
    detail: string,
  ) {
    super(`${flag}: ${detail}`);
    this.name = 'SelectionError';
  }
}

export interface Selected {
  /** The vectors to run, in id order. */
  vectors: LoadedVector[];
  /** What the filters selected before the shard. */
  filtered: LoadedVector[];
  /** The report's suite.selection: absent when the run is the whole loaded suite. */
  selection?: SuiteSelection;
}

function regex(flag: string, source: string | undefined): RegExp | undefined {
  if (source === undefined) return undefined;
  try {
    return new RegExp(source);
  } catch (error) {
    throw new SelectionError(flag, `invalid regular expression (${(error as Error).message})`);
  }
}

const nonEmpty = (list: string[] | undefined): list is string[] => list !== undefined && list.length > 0;

/** Applies the filters, then the shard; throws SelectionError for a filter that cannot be applied. */
export function selectSuite(all: readonly LoadedVector[], filters: SuiteFilters): Selected {
  const match = regex('--grep', filters.grep);
  const excludeMatch = regex('--exclude-grep', filters.excludeGrep);
  const unknownCaps = (filters.capabilities ?? []).filter((c) => !(CAPABILITIES as readonly string[]).includes(c));
  if (unknownCaps.length > 0) throw new SelectionError('--capability', `unknown capability ${unknownCaps.join(', ')} (known: ${CAPABILITIES.join(', ')})`);
  // An --exclude-part that names no part would exclude nothing without a word: refuse it (a --part that names none runs nothing, which says so).
  const parts = [...new Set(all.map((lv) => lv.part))].sort();
  const unknownExcluded = (filters.excludeParts ?? []).filter((p) => !parts.some((q) => inPart(q, p)));
  if (unknownExcluded.length > 0) throw new SelectionError('--exclude-part', `no part is named ${unknownExcluded.map((p) => JSON.stringify(p)).join(', ')} (parts: ${parts.join(', ')})`);
  const vf: VectorFilters = {
    ...(match ? { match } : {}),
    ...(nonEmpty(filters.parts) ? { parts: filters.parts } : {}),
    ...(excludeMatch ? { excludeMatch } : {}),
    ...(nonEmpty(filters.excludeParts) ? { excludeParts: filters.excludeParts } : {}),
    ...(nonEmpty(filters.capabilities) ? { capabilities: filters.capabilities } : {}),
  };
  const filtered = selectVectors(all, vf);
  let vectors = filtered;
  const shard = filters.shard;
  if (shard !== undefined) {
    if (filtered.length > 0 && shard.count > filtered.length)
      throw new SelectionError('--shard', `${shard.index}/${shard.count}: the selection has ${filtered.length} vector${filtered.length === 1 ? '' : 's'}, fewer than ${shard.count} shards; give at most ${filtered.length} shards`);
    vectors = shardOf(filtered, shard, (lv) => lv.vector.id);
  }
  const narrowed =
    filters.grep !== undefined ||
    nonEmpty(filters.parts) ||
    filters.excludeGrep !== undefined ||
    nonEmpty(filters.excludeParts) ||
    nonEmpty(filters.capabilities) ||
    shard !== undefined ||
    vectors.length !== all.length;
  if (!narrowed) return { vectors, filtered };
  const selection: SuiteSelection = {
    loaded: all.length,
    ...(filters.grep !== undefined ? { grep: filters.grep } : {}),
    ...(nonEmpty(filters.parts) ? { parts: filters.parts } : {}),
    ...(filters.excludeGrep !== undefined ? { exclude_grep: filters.excludeGrep } : {}),
    ...(nonEmpty(filters.excludeParts) ? { exclude_parts: filters.excludeParts } : {}),
    ...(nonEmpty(filters.capabilities) ? { capabilities: filters.capabilities } : {}),
    ...(shard !== undefined
      ? { shard: { index: shard.index, count: shard.count, of: filtered.length, digest: suiteDigest(filtered.map((lv) => ({ id: lv.vector.id, digest: lv.digest }))) } }
      : {}),
  };
  return { vectors, filtered, selection };
}
