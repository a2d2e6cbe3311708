// vectors/GRAMMAR.md and schema/vectors.schema.json state one grammar: every member the schema admits has a row in
// the document's member tables and every row names a member the schema admits; the capability table lists exactly
// the schema's capabilities; the document's template loads and passes on the reference host; every
// "GRAMMAR.md §N" the kit cites names a section that exists; and no user document points into this workspace.
import t from 'tap';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../version.js';
import { vectorFromValue } from './load.js';
import { parseLossless } from './json.js';
import { runSuite } from './runner.js';
import { createReferenceHarness } from '../harness/reference-harness.js';

type SchemaNode = boolean | { [key: string]: unknown };

const grammar = readFileSync(path.join(PACKAGE_ROOT, 'vectors', 'GRAMMAR.md'), 'utf8');
const schema = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'schema', 'vectors.schema.json'), 'utf8')) as Record<string, unknown>;
const defs = schema.$defs as Record<string, SchemaNode>;

/**
 * Every member path the schema admits, in the document's notation (`a.b`, `a[]` for list items, `<value>` for the
 * values of a map with author-chosen keys). Breadth-first, so a shared $def is spelled out once, at the reference
 * nearest the root; a later reference to it names only the member that holds it.
 */
function schemaMembers(root: SchemaNode, definitions: Record<string, SchemaNode>): string[] {
  const out: string[] = [];
  const expanded = new Set<string>();
  const queue: Array<[string, SchemaNode]> = [['', root]];
  while (queue.length > 0) {
    const [prefix, start] = queue.shift()!;
    if (typeof start === 'boolean') continue;
    let node = start;
    if (typeof node.$ref === 'string') {
      const name = node.$ref.replace(/^#\/\$defs\//, '');
      if (expanded.has(name)) continue;
      expanded.add(name);
      const target = definitions[name];
      if (target === undefined) throw new Error(`unresolved $ref ${node.$ref}`);
      if (typeof target === 'boolean') continue;
      node = target;
    }
    for (const alternative of [...((node.anyOf as SchemaNode[]) ?? []), ...((node.oneOf as SchemaNode[]) ?? [])]) queue.push([prefix, alternative]);
    for (const [key, sub] of Object.entries((node.properties as Record<string, SchemaNode>) ?? {})) {
      const member = prefix === '' ? key : `${prefix}.${key}`;
      out.push(member);
      queue.push([member, sub]);
    }
    if (node.items !== undefined && typeof node.items === 'object') queue.push([`${prefix}[]`, node.items as SchemaNode]);
    if (node.additionalProperties !== undefined && typeof node.additionalProperties === 'object') queue.push([`${prefix}.<value>`, node.additionalProperties as SchemaNode]);
  }
  return out;
}

interface TableRow {
  line: number;
  cells: string[];
}

/** The body rows of every Markdown table whose first header cell is `header`. */
function tableRows(md: string, header: string): TableRow[] {
  const lines = md.split('\n');
  const rows: TableRow[] = [];
  const cellsOf = (line: string) => line.trim().replace(/^\|/, '').replace(/\|$/, '').split(/(?<!\\)\|/).map((c) => c.trim());
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('|') || cellsOf(lines[i]!)[0] !== header) continue;
    let j = i + 2; // past the header and the separator
    for (; j < lines.length && lines[j]!.startsWith('|'); j++) rows.push({ line: j + 1, cells: cellsOf(lines[j]!) });
    i = j;
  }
  return rows;
}

/** The one code span a cell consists of, or undefined. */
const codeSpan = (cell: string) => /^`([^`]+)`$/.exec(cell)?.[1];

/** Section numbers of the document's numbered headings (`## 5. …`, `### 5.8 …`). */
function sectionNumbers(md: string): Set<string> {
  const out = new Set<string>();
  for (const m of md.matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)) out.add(m[1]!);
  return out;
}

/** Every `GRAMMAR.md §N` (and `§N, §M`, `§N–§M` following it) in a text. */
function grammarCitations(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/GRAMMAR\.md((?:(?:\s*(?:,|–|-|and|or)\s*|\s+)§\d+(?:\.\d+)?)+)/g)) {
    for (const s of m[1]!.matchAll(/§(\d+(?:\.\d+)?)/g)) out.push(s[1]!);
  }
  return out;
}

function filesUnder(dir: string, keep: (file: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full, keep));
    else if (keep(full)) out.push(full);
  }
  return out;
}

t.test('the schema walk names nested members, list items and map values', async (t) => {
  const members = schemaMembers(
    { type: 'object', properties: { a: { $ref: '#/$defs/x' }, b: { type: 'array', items: { $ref: '#/$defs/x' } }, m: { type: 'object', additionalProperties: { properties: { v: true } } } } },
    { x: { type: 'object', properties: { y: { type: 'array', items: { properties: { z: true } } } } } },
  );
  t.same(members, ['a', 'b', 'm', 'a.y', 'm.<value>.v', 'a.y[].z'], 'a $def is spelled out at its first, shallowest reference only');
});

t.test('every member the vector schema admits is documented in GRAMMAR.md, and nothing else is', async (t) => {
  const rows = tableRows(grammar, 'member');
  const documented = rows.map((r) => codeSpan(r.cells[0] ?? ''));
  const malformed = rows.filter((_, i) => documented[i] === undefined).map((r) => `line ${r.line}: ${r.cells[0]}`);
  t.same(malformed, [], 'the first cell of a member row is one code span holding the member path');
  const badOrigin = rows.filter((r) => !['published', 'CTK'].includes(r.cells[1] ?? '')).map((r) => `line ${r.line}: ${r.cells[1]}`);
  t.same(badOrigin, [], 'the origin of every member is "published" or "CTK"');
  const names = documented.filter((d): d is string => d !== undefined);
  t.same(names.filter((n, i) => names.indexOf(n) !== i), [], 'no member is documented twice');
  const members = schemaMembers(schema as SchemaNode, defs);
  t.ok(members.length > 100, `the schema walk found ${members.length} members`);
  const have = new Set(names);
  t.same(members.filter((m) => !have.has(m)), [], 'members the schema admits that GRAMMAR.md does not document');
  const admitted = new Set(members);
  t.same(names.filter((n) => !admitted.has(n)), [], 'members GRAMMAR.md documents that the schema does not admit');
});

t.test("GRAMMAR.md's capability table lists exactly the capabilities a vector may name", async (t) => {
  const properties = schema.properties as Record<string, { items: { enum: string[] } }>;
  const allowed = properties.capabilities!.items.enum;
  const listed = tableRows(grammar, 'capability').map((r) => codeSpan(r.cells[0] ?? ''));
  t.same([...listed].sort(), [...allowed].sort());
});

t.test("GRAMMAR.md's template loads and passes on both reference configurations", async (t) => {
  const section = grammar.slice(grammar.indexOf('## 13. '), grammar.indexOf('## 14. '));
  const json = /```json\n([\s\S]*?)\n```/.exec(section)?.[1];
  t.ok(json, '§13 holds a json block');
  const result = vectorFromValue(parseLossless(json!), 'GRAMMAR.md §13');
  if ('problem' in result) {
    t.fail(result.problem);
    return;
  }
  for (const streaming of ['buffered', 'incremental'] as const) {
    const harness = createReferenceHarness({ streaming });
    try {
      const surface = await harness.describe();
      const report = await runSuite([result.loaded], { harness, surface, harnessLabel: streaming, timeoutMs: 30_000 });
      t.same(report.results.map((r) => [r.status, r.failures.map((f) => f.message)]), [['pass', []]], `${streaming}: the template passes`);
    } finally {
      await harness.close?.();
    }
  }
});

t.test('GRAMMAR.md maps every section of the published grammar', async (t) => {
  const rows = tableRows(grammar, 'published §');
  t.same(rows.map((r) => r.cells[0]), ['1', '2', '3', '4', '5', '6', '7', '8', '9']);
  const sections = sectionNumbers(grammar);
  const unknown = rows.flatMap((r) => [...(r.cells[2] ?? '').matchAll(/§(\d+(?:\.\d+)?)/g)].map((m) => m[1]!)).filter((s) => !sections.has(s));
  t.same(unknown, [], 'the map points at sections that exist');
});

t.test('the citation reader takes lists and ranges after GRAMMAR.md', async (t) => {
  t.same(grammarCitations('see GRAMMAR.md §5.5, §11 and GRAMMAR.md §3–§4; not §7'), ['5.5', '11', '3', '4']);
});

t.test('every GRAMMAR.md section the kit cites exists', async (t) => {
  const sections = sectionNumbers(grammar);
  const sources = [
    ...filesUnder(path.join(PACKAGE_ROOT, 'src'), (f) => f.endsWith('.ts') || f.endsWith('.md')),
    ...filesUnder(path.join(PACKAGE_ROOT, 'schema'), (f) => f.endsWith('.json')),
    ...filesUnder(path.join(PACKAGE_ROOT, 'integrations'), (f) => f.endsWith('.ts') || f.endsWith('.md')),
    ...['README.md', 'HARNESS.md', 'CLAIMS.md', 'READINGS.md', 'FUZZ.md', 'vectors/README.md', 'vectors/GRAMMAR.md'].map((f) => path.join(PACKAGE_ROOT, f)),
  ];
  const broken: string[] = [];
  let cited = 0;
  for (const file of sources) {
    if (file.endsWith('grammar-doc.test.ts')) continue; // this file's own examples
    for (const s of grammarCitations(readFileSync(file, 'utf8'))) {
      cited++;
      if (!sections.has(s)) broken.push(`${path.relative(PACKAGE_ROOT, file)}: GRAMMAR.md §${s}`);
    }
  }
  t.ok(cited > 40, `the kit cites GRAMMAR.md sections (${cited} citations)`);
  t.same(broken, [], 'citations of sections GRAMMAR.md does not have');
});

t.test('the package ships GRAMMAR.md', async (t) => {
  const pkg = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { files: string[] };
  t.ok(pkg.files.includes('vectors'), 'package.json files includes vectors/, where GRAMMAR.md lives');
});

t.test('user documents name no path that exists only in this workspace', async (t) => {
  const docs = [
    ...['README.md', 'HARNESS.md', 'CLAIMS.md', 'READINGS.md', 'FUZZ.md', 'vectors/README.md', 'vectors/GRAMMAR.md'].map((f) => path.join(PACKAGE_ROOT, f)),
    ...filesUnder(path.join(PACKAGE_ROOT, 'integrations'), (f) => path.basename(f) === 'README.md'),
    ...filesUnder(path.join(PACKAGE_ROOT, 'examples'), (f) => path.basename(f) === 'README.md'),
  ];
  const offending: string[] = [];
  for (const file of docs) {
    for (const [i, line] of readFileSync(file, 'utf8').split('\n').entries()) {
      if (/\.\.\/shared|\/work\/|sample-vectors|VECTOR-FORMAT\.md/.test(line)) offending.push(`${path.relative(PACKAGE_ROOT, file)}:${i + 1}: ${line.trim()}`);
    }
  }
  t.same(offending, [], 'a user reads these after installing from npm: the published corpus is a checkout of the published repo');
});
