import t from 'tap';
import { MAX_SHARDS, parseShard, shardCaseCount, shardCaseIndex, shardOf, ShardError, type Shard } from './shard.js';
import { defaultVectorPaths, loadVectors } from './load.js';
import { selectSuite } from './selection.js';
import { suiteDigest } from '../results/digest.js';
import { runCampaign, type CampaignResult } from './fuzz/fuzz.js';
import { createOracle } from './fuzz/oracle.js';
import { MUTANTS } from './mutants/mutants.js';
import { referenceSurface } from '../harness/reference-harness.js';

t.test('--shard i/n parses; anything else is refused with what to give', async (t) => {
  t.same(parseShard('2/3'), { index: 2, count: 3 });
  t.same(parseShard(' 1 / 1 '), { index: 1, count: 1 });
  for (const [text, pattern] of [
    ['3', /expected i\/n, e\.g\. 1\/3/],
    ['0/3', /the shard index must be 1 to 3, got 0/],
    ['4/3', /the shard index must be 1 to 3, got 4/],
    ['1/0', /the shard count must be 1 to 1000, got 0/],
    [`1/${MAX_SHARDS + 1}`, /the shard count must be 1 to 1000/],
    ['-1/3', /expected i\/n/],
    ['1.5/3', /expected i\/n/],
  ] as const) {
    t.throws(() => parseShard(text), ShardError, text);
    t.throws(() => parseShard(text), pattern, text);
  }
});

t.test('three shards of the default suite: disjoint, balanced, their union is the suite, dealt in id order', async (t) => {
  const all = loadVectors(defaultVectorPaths());
  const shards = [1, 2, 3].map((index) => selectSuite(all, { shard: { index, count: 3 } }));
  const ids = shards.map((s) => s.vectors.map((lv) => lv.vector.id));
  const union = ids.flat();
  t.equal(new Set(union).size, union.length, 'no vector is in two shards');
  t.same([...union].sort(), all.map((lv) => lv.vector.id).sort(), 'together they are the suite');
  const sizes = ids.map((x) => x.length);
  t.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `balanced: ${sizes.join(', ')}`);
  t.same(ids[0]!.slice(0, 2), [all[0]!.vector.id, all[3]!.vector.id], 'round-robin in id order');
  const digest = suiteDigest(all.map((lv) => ({ id: lv.vector.id, digest: lv.digest })));
  for (const [i, s] of shards.entries()) {
    t.same(s.selection?.shard, { index: i + 1, count: 3, of: all.length, digest }, 'each shard names what it was cut from');
    t.equal(s.selection?.loaded, all.length);
  }
  // Ids cluster by part, and the deal spreads any three vectors next to each other in id order over the three
  // shards: every part holding such a run reaches every shard.
  const sorted = [...all].sort((a, b) => (a.vector.id < b.vector.id ? -1 : 1));
  const clustered = new Set<string>();
  for (let i = 2; i < sorted.length; i++) if (sorted[i]!.part === sorted[i - 1]!.part && sorted[i]!.part === sorted[i - 2]!.part) clustered.add(sorted[i]!.part);
  t.ok(clustered.size > 10, 'the suite has parts whose vectors sit together');
  for (const part of clustered) t.ok(shards.every((s) => s.vectors.some((lv) => lv.part === part)), `${part} is spread`);
  t.same(
    selectSuite(all, { shard: { index: 2, count: 3 } }).vectors.map((lv) => lv.vector.id),
    ids[1],
    'deterministic',
  );
  t.same(shardOf(['c', 'a', 'b', 'd'], { index: 1, count: 2 }, (x) => x), ['a', 'c'], 'sorted before dealing, whatever the input order');
});

t.test('a shard applies after the filters; more shards than selected vectors is refused', async (t) => {
  const all = loadVectors(defaultVectorPaths());
  const part = selectSuite(all, { parts: ['verdict/transform'] });
  const halves = [1, 2].map((index) => selectSuite(all, { parts: ['verdict/transform'], shard: { index, count: 2 } }));
  t.same(halves.flatMap((h) => h.vectors.map((lv) => lv.vector.id)).sort(), part.vectors.map((lv) => lv.vector.id).sort());
  t.same(halves[0]!.selection?.parts, ['verdict/transform']);
  t.equal(halves[0]!.selection?.shard?.of, part.vectors.length);
  t.throws(() => selectSuite(all, { parts: ['verdict/allow'], shard: { index: 1, count: 5 } }), /--shard: 1\/5: the selection has 1 vector, fewer than 5 shards; give at most 1 shards/);
});

t.test('fuzz shards: the case indices of n shards are exactly 0 … runs−1, each once', async (t) => {
  for (const runs of [1, 2, 7, 60, 1000]) {
    for (const count of [1, 2, 3, 7]) {
      if (count > runs) continue;
      const seen: number[] = [];
      for (let index = 1; index <= count; index++) {
        const shard: Shard = { index, count };
        for (let k = 0; k < shardCaseCount(shard, runs); k++) seen.push(shardCaseIndex(shard, k));
      }
      t.same(seen.sort((a, b) => a - b), Array.from({ length: runs }, (_, i) => i), `runs ${runs}, ${count} shards`);
    }
  }
  t.equal(shardCaseIndex(undefined, 5), 5);
  t.equal(shardCaseCount({ index: 3, count: 3 }, 2), 0);
});

t.test('fuzz shards run the unsharded campaign\'s cases: the divergent cases of three shards are the unsharded ones', async (t) => {
  const surface = referenceSurface();
  const mutant = MUTANTS.find((m) => m.id === 'warnings-not-deduplicated')!;
  const campaign = async (shard?: Shard): Promise<CampaignResult> =>
    runCampaign({ host: { label: mutant.id, surface, create: async () => mutant.harness() }, oracle: await createOracle(surface), seed: '1', runs: 60, shrink: false, ...(shard ? { shard } : {}) });
  const whole = await campaign();
  const parts = [await campaign({ index: 1, count: 3 }), await campaign({ index: 2, count: 3 }), await campaign({ index: 3, count: 3 })];
  t.ok(whole.divergent_cases > 0, `the mutant diverges (${whole.divergent_cases} of 60 cases)`);
  t.same(parts.map((p) => p.cases), [20, 20, 20]);
  t.same(parts.map((p) => p.shard), [{ index: 1, count: 3 }, { index: 2, count: 3 }, { index: 3, count: 3 }]);
  const cases = (r: CampaignResult) => r.groups.flatMap((g) => g.cases.map((c) => `${g.field} ${c}`));
  t.same(parts.flatMap(cases).sort(), cases(whole).sort(), 'the same cases diverge, in the same way');
  for (const [i, p] of parts.entries()) t.ok(p.groups.every((g) => g.cases.every((c) => c % 3 === i)), `shard ${i + 1} ran only its own indices`);
});
