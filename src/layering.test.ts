// The layout the README draws, checked on the source: every import in src/ points to its own layer or a lower
// one, and no set of modules imports itself round, counting type-only imports and inline import('…') types.
// bench/ sits above src/ (it measures the internals, never the CLI); integrations/ and examples/ reach the
// package only through its public entry points.
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { PACKAGE_ROOT } from './version.js';

/** Lowest first: a module imports only from its own layer or one before it. */
const LAYERS = ['core', 'host', 'harness', 'results', 'ctk', 'report', 'testing', 'cli'] as const;
/** src/ files outside a layer folder: version.ts is a leaf every layer reads; index.ts is the package entry (and this test sees all). */
const TOP_LEVEL: Record<string, string> = { 'src/version.ts': 'core', 'src/index.ts': 'entry', 'src/layering.test.ts': 'entry' };
const RANK = new Map<string, number>([...LAYERS.map((l, i) => [l, i] as const), ['entry', LAYERS.length - 1]]);
/** The files behind the package's exports ("agent-hooks-ctk", "/host", "/core"). */
const PUBLIC_SOURCES = ['src/index.ts', 'src/host/index.ts', 'src/core/index.ts'];
const PUBLIC_NAMES = ['agent-hooks-ctk', 'agent-hooks-ctk/host', 'agent-hooks-ctk/core'];

interface Edge {
  from: string;
  /** The specifier as written. */
  spec: string;
  /** Repository-relative target file for a relative specifier, else undefined. */
  to?: string;
}

/** Every module specifier of a file: import/export … from, side-effect imports, import() calls and import('…') types. */
function specifiers(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('js') ? ts.ScriptKind.JS : ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) out.push(node.moduleSpecifier.text);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) out.push(node.moduleReference.expression.text);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) out.push(node.argument.literal.text);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) out.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function edgesOf(files: ReadonlyMap<string, string>): Edge[] {
  const edges: Edge[] = [];
  for (const [file, text] of files) {
    for (const spec of specifiers(file, text)) {
      if (!spec.startsWith('.')) {
        edges.push({ from: file, spec });
        continue;
      }
      const to = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\.js$/, '.ts');
      edges.push({ from: file, spec, to });
    }
  }
  return edges;
}

function layerOf(file: string): string | undefined {
  if (TOP_LEVEL[file]) return TOP_LEVEL[file];
  const m = /^src\/([^/]+)\//.exec(file);
  return m && RANK.has(m[1]!) ? m[1] : undefined;
}

/** Imports in src/ that point to a higher layer (or out of src/, or into the package entry). */
function upwardImports(files: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  for (const file of files.keys()) if (file.startsWith('src/') && layerOf(file) === undefined) problems.push(`${file} is in no layer (${LAYERS.join(' → ')})`);
  for (const e of edgesOf(files)) {
    const from = e.from.startsWith('src/') ? layerOf(e.from) : undefined;
    if (from === undefined) continue;
    if (e.to === undefined) {
      if (PUBLIC_NAMES.some((n) => e.spec === n || e.spec.startsWith(`${n}/`))) problems.push(`${e.from} imports the package by name (${e.spec})`);
      continue;
    }
    if (e.to === 'src/index.ts' && e.from !== 'src/index.ts') {
      problems.push(`${e.from} imports the package entry src/index.ts`);
      continue;
    }
    const to = layerOf(e.to);
    if (to === undefined) problems.push(`${e.from} imports ${e.to}, outside the layers`);
    else if (RANK.get(to)! > RANK.get(from)!) problems.push(`${e.from} (${from}) imports ${e.to} (${to}): upward`);
  }
  return problems;
}

/** Every strongly connected set of more than one module (or a module importing itself), as file lists. */
function importCycles(files: ReadonlyMap<string, string>): string[][] {
  const next = new Map<string, string[]>();
  for (const f of files.keys()) next.set(f, []);
  for (const e of edgesOf(files)) if (e.to !== undefined && files.has(e.to)) next.get(e.from)!.push(e.to);
  // Tarjan's algorithm.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || next.get(v)!.includes(v)) cycles.push(component.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) connect(v);
  return cycles;
}

/** bench/ imports src/ and itself, never the CLI or the package entry; src/ never imports bench/. */
function benchImports(files: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  for (const e of edgesOf(files)) {
    if (e.to === undefined) continue;
    if (e.from.startsWith('src/') && e.to.startsWith('bench/')) problems.push(`${e.from} imports ${e.to}: src/ never imports bench/`);
    if (!e.from.startsWith('bench/')) continue;
    if (e.to.startsWith('bench/')) continue;
    // The registry of shipped integrations is data the bench rows are built from, not code under measurement.
    if (e.to === 'integrations/frameworks.ts') continue;
    const to = layerOf(e.to);
    if (to === undefined || to === 'cli' || to === 'entry') problems.push(`${e.from} imports ${e.to}: bench/ measures src/ below the CLI`);
  }
  return problems;
}

/** integrations/<name>/ and examples/<name>/ import their own files, other packages, and the package only by its exports. */
function consumerImports(files: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  for (const e of edgesOf(files)) {
    const home = /^(integrations|examples)\/[^/]+\//.exec(e.from)?.[0];
    if (home === undefined) continue;
    if (e.to === undefined) {
      if (e.spec.startsWith('agent-hooks-ctk') && !PUBLIC_NAMES.includes(e.spec)) problems.push(`${e.from} imports ${e.spec}: only ${PUBLIC_NAMES.join(', ')} are public`);
      continue;
    }
    const to = e.to.replace(/\.ts$/, /\.(mjs|cjs)$/.test(e.spec) ? e.spec.slice(e.spec.lastIndexOf('.')) : '.ts');
    if (to.startsWith(home) || PUBLIC_SOURCES.includes(e.to)) continue;
    problems.push(`${e.from} imports ${to}: outside ${home} and not a public entry point (${PUBLIC_SOURCES.join(', ')})`);
  }
  return problems;
}

function readTree(dir: string, keep: (file: string) => boolean, into = new Map<string, string>()): Map<string, string> {
  const abs = path.join(PACKAGE_ROOT, dir);
  for (const entry of readdirSync(abs, { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!['node_modules', 'dist', 'fixtures'].includes(entry.name)) readTree(rel, keep, into);
    } else if (keep(rel)) into.set(rel, readFileSync(path.join(PACKAGE_ROOT, rel), 'utf8'));
  }
  return into;
}

const isTs = (f: string) => f.endsWith('.ts') && !f.endsWith('.d.ts');
const src = readTree('src', isTs);

t.test('no module in src/ imports a higher layer (type-only imports included)', async (t) => {
  t.ok(src.size > 100, `${src.size} modules read`);
  t.same(upwardImports(src), [], LAYERS.join(' → '));
});

t.test('no import cycle in src/ (type-only imports and import() types included)', async (t) => {
  t.same(importCycles(src).map((c) => c.join(' ⇄ ')), []);
});

t.test('bench/ imports src/ below the CLI, and src/ never imports bench/', async (t) => {
  const tree = readTree('bench', isTs, new Map(src));
  t.same(benchImports(tree), []);
  t.same(importCycles(tree).map((c) => c.join(' ⇄ ')), []);
});

t.test('integrations and examples reach the package only through its public entry points', async (t) => {
  const tree = new Map<string, string>();
  for (const dir of ['integrations', 'examples']) readTree(dir, (f) => /\.(ts|mts|mjs|js|cjs)$/.test(f) && !f.endsWith('.d.ts'), tree);
  t.ok([...tree.keys()].some((f) => f.startsWith('integrations/')), 'integrations read');
  t.same(consumerImports(tree), []);
});

t.test('the checks catch what they are for', async (t) => {
  const files = new Map([
    ['src/core/a.ts', "import type { B } from '../host/b.js';\nexport type A = B;"],
    ['src/host/b.ts', "export type B = import('./c.js').C;"],
    ['src/host/c.ts', "export { x } from './b.js';\nexport type C = 1;"],
    ['src/ctk/d.ts', "const m = await import('../cli/e.js');"],
    ['src/cli/e.ts', "import '../results/f.js';"],
    ['src/results/f.ts', "import { g } from 'agent-hooks-ctk/core';"],
    ['src/stray/g.ts', ''],
  ]);
  t.same(upwardImports(files), [
    'src/stray/g.ts is in no layer (core → host → harness → results → ctk → report → testing → cli)',
    'src/core/a.ts (core) imports src/host/b.ts (host): upward',
    'src/ctk/d.ts (ctk) imports src/cli/e.ts (cli): upward',
    'src/results/f.ts imports the package by name (agent-hooks-ctk/core)',
  ]);
  t.same(importCycles(files), [['src/host/b.ts', 'src/host/c.ts']], 'an import() type closes a cycle');
  t.same(
    consumerImports(
      new Map([
        ['integrations/x/src/a.ts', "import { y } from '../../../src/host/loop.js';\nimport { z } from 'agent-hooks-ctk/dist/src/ctk/runner.js';\nimport { w } from './b.js';"],
        ['examples/e/run.ts', "import { v } from '../../src/host/index.js';"],
      ]),
    ),
    [
      'integrations/x/src/a.ts imports src/host/loop.ts: outside integrations/x/ and not a public entry point (src/index.ts, src/host/index.ts, src/core/index.ts)',
      'integrations/x/src/a.ts imports agent-hooks-ctk/dist/src/ctk/runner.js: only agent-hooks-ctk, agent-hooks-ctk/host, agent-hooks-ctk/core are public',
    ],
  );
  t.same(benchImports(new Map([['bench/a.ts', "import { main } from '../src/cli/main.js';"]])), ['bench/a.ts imports src/cli/main.ts: bench/ measures src/ below the CLI']);
});
