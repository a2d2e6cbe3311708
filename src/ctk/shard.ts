// `--shard i/n`: one of n disjoint parts of a run, so CI can run them as parallel jobs and `merge` their reports.
// The rule, the same for `run` and `fuzz`, deterministic and balanced:
//   run:  the vectors the other filters select, in id order (UTF-16 code units), are dealt round-robin: the k-th
//         (0-based) goes to shard (k mod n) + 1. Shard sizes differ by at most one, and since ids cluster by part,
//         every part is spread across the shards.
//   fuzz: case index k of the seed belongs to shard (k mod n) + 1; with --runs N the n shards together run exactly
//         the cases 0 … N−1 of the unsharded campaign, each case generated from (seed, k) as it would be unsharded.

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

export const MAX_SHARDS = 1000;

export class ShardError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShardError';
  }
}

/** "2/3" → {index: 2, count: 3}; throws ShardError on anything else. */
export function parseShard(text: string): Shard {
  const m = /^\s*([0-9]+)\s*\/\s*([0-9]+)\s*$/.exec(text);
  if (!m) throw new ShardError(`expected i/n, e.g. 1/3 (this job runs the first of three shards), got ${JSON.stringify(text)}`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > MAX_SHARDS) throw new ShardError(`the shard count must be 1 to ${MAX_SHARDS}, got ${count}`);
  if (index < 1 || index > count) throw new ShardError(`the shard index must be 1 to ${count}, got ${index}`);
  return { index, count };
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The items of one shard: sorted by id, dealt round-robin (see the rule above). */
export function shardOf<T>(items: readonly T[], shard: Shard, id: (item: T) => string): T[] {
  return [...items].sort((a, b) => compareCodeUnits(id(a), id(b))).filter((_, k) => k % shard.count === shard.index - 1);
}

/** The k-th (0-based) case index of a fuzz shard: (index − 1) + k·count. */
export function shardCaseIndex(shard: Shard | undefined, k: number): number {
  return shard === undefined ? k : shard.index - 1 + k * shard.count;
}

/** How many of the case indices 0 … runs−1 a fuzz shard runs. */
export function shardCaseCount(shard: Shard | undefined, runs: number): number {
  if (shard === undefined || !Number.isFinite(runs)) return runs;
  return runs <= shard.index - 1 ? 0 : Math.ceil((runs - (shard.index - 1)) / shard.count);
}
