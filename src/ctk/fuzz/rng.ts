// The fuzzer's seeded PRNG: sfc32 keyed by a 128-bit hash of (seed, case index), so case N of a campaign is
// the same whatever ran before it, on any machine, with any --jobs (determinism by seed).

/** A small deterministic random source. Every draw the generator makes goes through one of these. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(key: string) {
    [this.a, this.b, this.c, this.d] = hash128(key);
    for (let i = 0; i < 12; i++) this.next(); // sfc32 warm-up
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    let t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    t = (t + this.d) | 0;
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** true with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick: nothing to pick from');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** One of the items, each with its weight (weights need not sum to 1; zero-weight items are never picked). */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    const total = items.reduce((s, [, w]) => s + Math.max(0, w), 0);
    if (total <= 0) throw new Error('Rng.weighted: every weight is zero');
    let r = this.next() * total;
    for (const [item, w] of items) {
      if (w <= 0) continue;
      r -= w;
      if (r < 0) return item;
    }
    return items.filter(([, w]) => w > 0).at(-1)![0];
  }

  /** k distinct items (k clamped to the list), in list order. */
  subset<T>(items: readonly T[], k: number): T[] {
    const chosen = new Set<number>();
    const n = Math.min(k, items.length);
    while (chosen.size < n) chosen.add(Math.floor(this.next() * items.length));
    return [...chosen].sort((x, y) => x - y).map((i) => items[i]!);
  }
}

/** The generator of case `index` in the campaign of `seed`. */
export function caseRng(seed: string | number, index: number): Rng {
  return new Rng(`agent-hooks-ctk/fuzz:${seed}:${index}`);
}

/** cyrb128: a fast 128-bit string hash, used only to key the PRNG. */
function hash128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}
