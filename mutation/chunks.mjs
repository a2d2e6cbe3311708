// The mutation run in chunks (mutation/run.mjs): Stryker instruments only the files a run mutates, and the
// instrumentation of every file of src/host and src/core makes each test run several times slower (the suite's dry
// run: 14 s instrumented whole, 4 s with three files), so each chunk is its own Stryker run with its own incremental
// file, and the chunks' reports are merged into reports/mutation/. The last chunk takes every file no other names,
// so a new source file is always mutated.
export const CHUNKS = [
  { name: 'core-identity', files: ['src/core/canonical.ts', 'src/core/identity.ts', 'src/core/number-domain.ts', 'src/core/json.ts', 'src/core/json-text.ts', 'src/core/utf8.ts', 'src/core/domain-scan.ts'] },
  { name: 'core-checks', files: ['src/core/envelope.ts', 'src/core/paths.ts', 'src/core/verdict-gate.ts', 'src/core/schemas.ts', 'src/core/postures.ts', 'src/core/generated-validators.ts'] },
  { name: 'host-emitter', files: ['src/host/emitter.ts', 'src/host/dispatch.ts', 'src/host/profiles.ts', 'src/host/approval.ts', 'src/host/aggregate.ts', 'src/host/transform.ts', 'src/host/options.ts'] },
  { name: 'host-loop', files: ['src/host/loop.ts', 'src/host/stream.ts', 'src/host/incremental.ts', 'src/host/parts.ts', 'src/host/wire.ts'] },
  { name: 'host-session', files: ['src/host/session.ts', 'src/host/framework-kit.ts', 'src/host/context.ts', 'src/host/record.ts', 'src/host/labels.ts', 'src/host/locate.ts', 'src/host/verdict.ts', 'src/host/identity-providers.ts'] },
  { name: 'rest', files: null },
];

/** The `mutate` globs of a chunk, from the whole run's globs (stryker.config.mjs). */
export function chunkMutate(name, globs) {
  const chunk = CHUNKS.find((c) => c.name === name);
  if (!chunk) throw new Error(`mutation: no chunk named ${name} (chunks: ${CHUNKS.map((c) => c.name).join(', ')})`);
  if (chunk.files) return chunk.files;
  return [...globs, ...CHUNKS.flatMap((c) => c.files ?? []).map((f) => `!${f}`)];
}

/** Where a chunk keeps its report and its incremental file. */
export const chunkFiles = (name) => ({ report: `reports/mutation/chunks/${name}.json`, incremental: `reports/mutation/chunks/${name}.incremental.json` });

/**
 * The sources the run tests with their Stryker directives ignored (mutation/run.mjs): `undefined` is every source of
 * the run (`--directive-free a.ts,b.ts` names others). Each disabled mutant is tested and the directives are applied
 * afterwards, so the run scores every file with and without its directives and finds each wrong disable. A surviving
 * mutant costs a run of every test that covers it: over all of src/host and src/core (about 5,400 mutants, 2,100
 * disabled) the run took 50 minutes of the 2-core machine, later runs being incremental.
 */
export const DIRECTIVE_FREE = undefined;
