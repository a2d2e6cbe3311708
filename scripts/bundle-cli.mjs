// Build step (after tsc): bundles the CLI into ES module chunks under dist/cli/, which bin/agent-hooks-ctk.js starts.
// A cold start then reads a few chunks instead of a hundred-odd modules. The code is tsc's output, unchanged; only how
// it is packed into files differs. Two bundles:
// - dist/cli/main.js: every command, from dist/src/cli/main.js. Code splitting: every dynamic import (each command
//   module, each file reporter, the stdio client, the requirement catalogue) stays a chunk of its own, loaded only when
//   the command needs it, as from dist/src/.
// - dist/cli/run/main.js: the run command alone, from dist/src/cli/run-main.js (bin starts it for `run`): in the first
//   bundle the run path is split into the two dozen chunks it shares with one command or another; here it is a few.
// A process loads one of the two, never both, so it holds one copy of every CTK class.
// - commander, lossless-json and canonicalize are bundled (every run loads them); every other dependency (execa,
//   yaml, tsx, chalk, ajv's runtime helpers) stays an import of the installed package, loaded on demand.
// - The library's entry points (agent-hooks-ctk, /host, /core) stay unbundled dist/src/: an in-process harness
//   that imports them holds a second copy of the library's classes, which the CTK checks only structurally
//   (src/cli/bundle.test.ts crosses the two copies).
// - The generated validators (dist/src/core/generated/*.cjs) stay where the build wrote them, required on first use.
//
// Writes dist/cli/modules.json too: for each chunk, the modules it holds (src/cli/main.test.ts reads it to tell
// which modules a process loaded). `node scripts/bundle-cli.mjs` after `tsc -p tsconfig.json`; npm run build runs it.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'dist', 'cli');
/** The dependencies packed into the chunks; every other bare import stays external. */
const BUNDLED = new Set(['commander', 'lossless-json', 'canonicalize']);

const packageOf = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);

/** Resolves a bare import: a bundled package's, or left to Node at run time. */
const externals = {
  name: 'externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      return BUNDLED.has(packageOf(args.path)) ? undefined : { path: args.path, external: true };
    });
  },
};

/**
 * core/generated-validators.js requires ./generated/<name>.cjs relative to its own file; from a chunk in `outdir` that
 * is dist/src/core/ by a relative path. The one line is rewritten (and the build fails if it is not found exactly once).
 */
const generatedValidators = (outdir) => ({
  name: 'generated-validators',
  setup(b) {
    const base = `${path.relative(outdir, path.join(ROOT, 'dist', 'src', 'core')).split(path.sep).join('/')}/`;
    b.onLoad({ filter: /[\\/]dist[\\/]src[\\/]core[\\/]generated-validators\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const from = 'createRequire(import.meta.url)';
      if (text.split(from).length !== 2) throw new Error(`bundle-cli: ${args.path} no longer holds "${from}" exactly once; update scripts/bundle-cli.mjs`);
      return { contents: text.replace(from, `createRequire(new URL(${JSON.stringify(base)}, import.meta.url))`), loader: 'js' };
    });
  },
});

/**
 * The run bundle's entry (cli/run-main.js) hands main() a program with the run command registered: the command table's
 * imports of the command modules never run there, and are left out (else each would split the run path in chunks).
 */
const noCommandModules = {
  name: 'no-command-modules',
  setup(b) {
    b.onResolve({ filter: /-command\.js$/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined));
  },
};

const OPTIONS = {
  absWorkingDir: ROOT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // commander is CommonJS: inside an ES module chunk its require() of Node built-ins needs a real require.
  banner: { js: "import { createRequire as __ctkCreateRequire } from 'node:module'; const require = __ctkCreateRequire(import.meta.url);" },
  chunkNames: '[name]-[hash]',
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
};

rmSync(OUT, { recursive: true, force: true });
// Every command (dist/cli/main.js), and the run command alone (dist/cli/run/main.js, exporting runMain).
const RUN_OUT = path.join(OUT, 'run');
const builds = [
  await build({ ...OPTIONS, entryPoints: { main: 'dist/src/cli/main.js' }, outdir: OUT, plugins: [externals, generatedValidators(OUT)] }),
  await build({ ...OPTIONS, entryPoints: { main: 'dist/src/cli/run-main.js' }, outdir: RUN_OUT, plugins: [noCommandModules, externals, generatedValidators(RUN_OUT)] }),
];

const modules = {};
const outputs = builds.flatMap((result) => Object.entries(result.metafile.outputs));
for (const [file, out] of outputs) modules[path.relative(OUT, path.join(ROOT, file)).split(path.sep).join('/')] = Object.keys(out.inputs).sort();
writeFileSync(path.join(OUT, 'modules.json'), `${JSON.stringify(modules, null, 1)}\n`);
const bytes = outputs.reduce((n, [, o]) => n + o.bytes, 0);
process.stdout.write(`bundle-cli: ${Object.keys(modules).length} chunks, ${Math.round(bytes / 1024)} KB in ${path.relative(ROOT, OUT)}/\n`);
