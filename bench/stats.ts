// Timing helpers for the benchmarks: warm up, repeat, report medians. Never used by tests.
import { performance } from 'node:perf_hooks';

export interface SampleOptions {
  /** Untimed calls before sampling (JIT, caches). */
  warmup: number;
  /** Timed samples; the median is reported. */
  samples: number;
  /** Calls per sample, for operations too quick to time one at a time. */
  batch?: number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Median microseconds per call of a synchronous function. */
export function sampleSync(fn: () => unknown, options: SampleOptions): number {
  const batch = options.batch ?? 1;
  for (let i = 0; i < options.warmup; i++) fn();
  const samples: number[] = [];
  for (let s = 0; s < options.samples; s++) {
    const start = performance.now();
    for (let i = 0; i < batch; i++) fn();
    samples.push(((performance.now() - start) * 1000) / batch);
  }
  return median(samples);
}

/** This process's CPU time in µs (user + system): other processes on a loaded machine do not count in it. */
export function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/**
 * Median CPU microseconds per call of two synchronous functions, sampled alternately (same warm-up, same drift);
 * CPU time, not wall time, so a ratio between the two holds on a loaded machine too.
 */
export function sampleSyncPair(a: () => unknown, b: () => unknown, options: SampleOptions): [number, number] {
  const batch = options.batch ?? 1;
  for (let i = 0; i < options.warmup; i++) {
    a();
    b();
  }
  const sa: number[] = [];
  const sb: number[] = [];
  for (let s = 0; s < options.samples; s++) {
    let start = cpuMicros();
    for (let i = 0; i < batch; i++) a();
    sa.push((cpuMicros() - start) / batch);
    start = cpuMicros();
    for (let i = 0; i < batch; i++) b();
    sb.push((cpuMicros() - start) / batch);
  }
  return [median(sa), median(sb)];
}

/** sampleSyncPair for asynchronous functions: median CPU µs per call of each, sampled alternately. */
export async function sampleAsyncPair(a: () => Promise<unknown>, b: () => Promise<unknown>, options: SampleOptions): Promise<[number, number]> {
  const batch = options.batch ?? 1;
  for (let i = 0; i < options.warmup; i++) {
    await a();
    await b();
  }
  const sa: number[] = [];
  const sb: number[] = [];
  for (let s = 0; s < options.samples; s++) {
    let start = cpuMicros();
    for (let i = 0; i < batch; i++) await a();
    sa.push((cpuMicros() - start) / batch);
    start = cpuMicros();
    for (let i = 0; i < batch; i++) await b();
    sb.push((cpuMicros() - start) / batch);
  }
  return [median(sa), median(sb)];
}

export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
