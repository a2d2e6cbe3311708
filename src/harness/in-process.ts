// Loads `--harness ./my-host`: a JS or TS module (TS through tsx) exporting `createHarness`
// or a default factory that returns a Harness (HARNESS.md, "In-process harness").
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Harness, HarnessFactory } from './contract.js';

export class HarnessLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HarnessLoadError';
  }
}

const EXTENSIONS = ['', '.js', '.mjs', '.ts', '.mts', '.cjs', '.cts'];

/** Resolves a module path as a user types it: exact file, with an extension, or a directory's index. */
export function resolveHarnessPath(spec: string, cwd = process.cwd()): string {
  const base = path.resolve(cwd, spec);
  for (const ext of EXTENSIONS) {
    const p = base + ext;
    if (existsSync(p) && statSync(p).isFile()) return p;
  }
  if (existsSync(base) && statSync(base).isDirectory()) {
    for (const ext of EXTENSIONS.slice(1)) {
      const p = path.join(base, 'index' + ext);
      if (existsSync(p)) return p;
    }
  }
  throw new HarnessLoadError(`--harness ${spec}: no such module (tried ${base} with .js/.mjs/.ts/.mts and ${path.join(base, 'index.*')})`);
}

async function importModule(file: string): Promise<Record<string, unknown>> {
  if (/\.[mc]?ts$/.test(file)) {
    const { tsImport } = await import('tsx/esm/api');
    return (await tsImport(file, import.meta.url)) as Record<string, unknown>;
  }
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

/** Picks the factory: named `createHarness`, a default function, or a default object with createHarness. */
function pickFactory(mod: Record<string, unknown>): HarnessFactory | undefined {
  if (typeof mod.createHarness === 'function') return mod.createHarness as HarnessFactory;
  const def = mod.default as unknown;
  if (typeof def === 'function') return def as HarnessFactory;
  if (def && typeof def === 'object') {
    // A CommonJS-compiled module (TS without "type": "module") nests its exports under default.
    const inner = def as Record<string, unknown>;
    if (typeof inner.createHarness === 'function') return inner.createHarness as HarnessFactory;
    if (typeof inner.default === 'function') return inner.default as HarnessFactory;
  }
  return undefined;
}

/** Checks that an object has the four methods of the harness contract. */
export function assertHarness(value: unknown, source: string): Harness {
  if (!value || typeof value !== 'object') throw new HarnessLoadError(`${source}: the factory returned ${value === null ? 'null' : typeof value}, not a harness object`);
  const missing = ['describe', 'setup', 'run', 'teardown'].filter((m) => typeof (value as Record<string, unknown>)[m] !== 'function');
  if (missing.length > 0) throw new HarnessLoadError(`${source}: the harness object lacks ${missing.join(', ')} (a harness has describe(), setup(run), run(), teardown(); see HARNESS.md)`);
  return value as Harness;
}

/** A compiler error's first line is only "Transform failed with 1 error:"; the location and cause follow it. */
function firstLines(message: string): string {
  const text = message.split('\n').map((l) => l.trim()).filter(Boolean).slice(0, 3).join(' ');
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

/** Loads and instantiates an in-process harness module. */
export async function loadInProcessHarness(spec: string, options: Record<string, unknown> = {}): Promise<Harness> {
  const file = resolveHarnessPath(spec);
  let mod: Record<string, unknown>;
  try {
    mod = await importModule(file);
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${firstLines(error.message)}` : String(error);
    throw new HarnessLoadError(`--harness ${spec}: cannot load the module (${message})`);
  }
  const factory = pickFactory(mod);
  if (!factory) throw new HarnessLoadError(`--harness ${spec}: the module exports neither createHarness nor a default factory function`);
  let harness: unknown;
  try {
    harness = await factory(options);
  } catch (error) {
    throw new HarnessLoadError(`--harness ${spec}: the harness factory threw (${error instanceof Error ? error.message : String(error)})`);
  }
  return assertHarness(harness, `--harness ${spec}`);
}
