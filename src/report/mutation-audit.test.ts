// The disables audit (mutation/audit.mjs) and the variant directive (mutation/run.mjs withEquivalentsIgnored): the
// directives are read as Stryker reads them, a directive-free copy keeps every line in place, a killed disabled
// mutant loses its disable (its surviving sibling variant named alone), and a variant directive marks only its variant.
import t from 'tap';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../version.js';

interface M {
  mutatorName: string;
  replacement: string;
  status: string;
  location: { start: { line: number; column: number } };
}
interface AuditModule {
  directivesOf(source: string): Array<{ line: number; target: number; nextLine: boolean }>;
  withoutDirectives(source: string): string;
  disablingDirective(directives: unknown, mutant: M): { line: number } | undefined;
  auditOf(report: unknown, sources: Record<string, string>): { files: Record<string, { disabled: number; disabled_killed: unknown[]; disabled_surviving: unknown[] }> };
  applyAuditToSource(source: string, fileAudit: unknown, known?: M[]): { source: string; log: string[] };
}
const load = async <T>(rel: string) => (await import(pathToFileURL(path.join(PACKAGE_ROOT, rel)).href)) as T;
const m = (line: number, mutatorName: string, replacement: string, status: string, column = 3): M => ({ mutatorName, replacement, status, location: { start: { line, column } } });

const SOURCE = [
  'function f(a: boolean) {',
  '  // Stryker disable next-line ConditionalExpression,StringLiteral: the CTK never passes a false a here',
  '  // a second comment line: the directive still covers the code after it',
  '  if (a) g("x");',
  '  // Stryker disable all: diagnostics only, no record carries them',
  '  h(1);',
  '  // Stryker restore all',
  '  k(2);',
  '}',
].join('\n');

t.test('directives are read as Stryker reads them, and blanked in place', async (t) => {
  const { directivesOf, withoutDirectives, disablingDirective } = await load<AuditModule>('mutation/audit.mjs');
  const d = directivesOf(SOURCE);
  t.same(d.map((x) => [x.line, x.target, x.nextLine]), [[2, 4, true], [5, 6, false], [7, 8, false]], 'a next-line directive covers the code line after further comments');
  t.equal(disablingDirective(d, m(4, 'ConditionalExpression', 'true', 'Killed'))?.line, 2);
  t.equal(disablingDirective(d, m(4, 'BooleanLiteral', 'false', 'Killed')), undefined, 'a mutator it does not name');
  t.equal(disablingDirective(d, m(6, 'ObjectLiteral', '{}', 'Killed'))?.line, 5, 'inside the block');
  t.equal(disablingDirective(d, m(8, 'ObjectLiteral', '{}', 'Killed')), undefined, 'after its restore');
  const blank = withoutDirectives(SOURCE);
  t.equal(blank.split('\n').length, SOURCE.split('\n').length, 'no line moves');
  t.notMatch(blank, /Stryker (disable|restore)/);
});

t.test('a killed disabled mutant loses its disable; its surviving sibling is named alone', async (t) => {
  const { auditOf, applyAuditToSource } = await load<AuditModule>('mutation/audit.mjs');
  const report = { files: { 'a.ts': { mutants: [m(4, 'ConditionalExpression', 'true', 'Killed'), m(4, 'ConditionalExpression', 'false', 'Survived'), m(4, 'StringLiteral', '""', 'Survived'), m(6, 'BlockStatement', '{}', 'Killed'), m(6, 'StringLiteral', '""', 'NoCoverage')] } } };
  const audit = auditOf(report, { 'a.ts': SOURCE });
  t.equal(audit.files['a.ts']!.disabled, 5);
  t.equal(audit.files['a.ts']!.disabled_killed.length, 2);
  const { source } = applyAuditToSource(SOURCE, audit.files['a.ts']);
  t.match(source, /\/\/ Stryker disable next-line StringLiteral: the CTK never passes/);
  t.match(source, /\/\/ Stryker equivalent next-line ConditionalExpression `false` @3: the CTK never passes/);
  t.notMatch(source, /Stryker disable all/, 'the block that hid a killed mutant is gone');
  t.match(source, /\/\/ Stryker disable next-line StringLiteral: diagnostics only[^\n]*\n {2}h\(1\);/, 'its survivor keeps a next-line disable');
  const untested = applyAuditToSource(SOURCE, audit.files['a.ts'], [m(6, 'ObjectLiteral', '{}', 'Ignored')]).source;
  t.match(untested, /\/\/ Stryker disable next-line StringLiteral,ObjectLiteral: diagnostics only/, 'a partial audit keeps an untested mutant disabled');
});

t.test('a variant directive marks only its surviving variant Ignored', async (t) => {
  const { withEquivalentsIgnored } = await load<{ withEquivalentsIgnored(r: unknown): { files: Record<string, { mutants: Array<M & { statusReason?: string }> }> } }>('mutation/run.mjs');
  const source = 'x\n  // Stryker equivalent next-line ConditionalExpression `false`: only read for truthiness\n  if (a) b();\n';
  const mutants = [m(3, 'ConditionalExpression', 'false', 'Survived'), m(3, 'ConditionalExpression', 'true', 'Survived'), m(3, 'ConditionalExpression', 'false', 'Killed', 9)];
  const out = withEquivalentsIgnored({ files: { 'a.ts': { source, mutants } } }).files['a.ts']!.mutants;
  t.same(out.map((x) => x.status), ['Ignored', 'Survived', 'Killed'], 'the other variant is tested, and a kill stays a kill');
  t.equal(out[0]!.statusReason, 'only read for truthiness');
});

t.test('the directive-free run: directives applied afterwards, a kill stays a kill, and the reports follow a rewrite', async (t) => {
  type R = { files: Record<string, { source: string; mutants: Array<M & { statusReason?: string; location: { start: { line: number; column: number }; end: { line: number; column: number } } }> }> };
  const audit = await load<{
    withDirectivesApplied(r: unknown): R;
    lineMapping(a: string, b: string): Map<number, number> | undefined;
    movedTo(file: string, f: unknown, source: string): R['files'][string];
    auditOf: AuditModule['auditOf'];
    applyAuditToSource: AuditModule['applyAuditToSource'];
  }>('mutation/audit.mjs');
  const at = (x: M) => ({ ...x, location: { start: x.location.start, end: { line: x.location.start.line, column: 40 } } });
  const mutants = [m(4, 'ConditionalExpression', 'true', 'Killed'), m(4, 'StringLiteral', '""', 'Survived'), m(6, 'BlockStatement', '{}', 'Timeout'), m(8, 'ObjectLiteral', '{}', 'Survived')].map(at);
  const free = { files: { 'a.ts': { source: SOURCE, mutants } } };
  const applied = audit.withDirectivesApplied(free).files['a.ts']!.mutants;
  t.same(applied.map((x) => x.status), ['Killed', 'Ignored', 'Ignored', 'Survived'], 'disabled and not killed: Ignored; killed under a disable: killed; after the restore: as tested');
  t.equal(applied[1]!.statusReason, 'the CTK never passes a false a here', "the directive's reason");
  // The rewrite changes comment lines only: every mutant moves with its code line.
  const { source } = audit.applyAuditToSource(SOURCE, audit.auditOf(free, { 'a.ts': SOURCE }).files['a.ts']);
  const moved = audit.movedTo('a.ts', free.files['a.ts'], source);
  const lines = source.split('\n');
  t.same(moved.mutants.map((x) => lines[x.location.start.line - 1]!.trim()), ['if (a) g("x");', 'if (a) g("x");', 'h(1);', 'k(2);']);
  t.equal(moved.source, source);
  t.same(audit.withDirectivesApplied({ files: { 'a.ts': moved } }).files['a.ts']!.mutants.map((x) => x.status), ['Killed', 'Ignored', 'Ignored', 'Survived'], 'the same statuses on the rewritten source');
  t.equal(audit.lineMapping(SOURCE, SOURCE.replace('k(2)', 'k(3)')), undefined, 'a change to code is no rewrite');
  t.throws(() => audit.movedTo('a.ts', free.files['a.ts'], SOURCE.replace('h(1)', 'h(2)')), /a\.ts changed in more than its Stryker directives/);
});

t.test('a variant directive names its mutant by place: two mutants starting at one column, a replacement with a backquote', async (t) => {
  const audit = await load<{ applyAuditToSource: AuditModule['applyAuditToSource']; auditOf: AuditModule['auditOf']; equivalentsOf(s: string): unknown[]; equivalentDirective(e: unknown[], m: unknown): unknown }>('mutation/audit.mjs');
  const source = 'x\n  // Stryker disable next-line ConditionalExpression,StringLiteral: wording only\n  if (a || b) f(`t`, "u");\n';
  const at = (col: number, end: number, mutatorName: string, replacement: string, status: string) => ({ mutatorName, replacement, status, location: { start: { line: 3, column: col }, end: { line: 3, column: end } } });
  // `a || b` and its operand `a` both start at column 7: one is killed, the other survives.
  const mutants = [at(7, 13, 'ConditionalExpression', 'false', 'Killed'), at(7, 8, 'ConditionalExpression', 'false', 'Survived'), at(17, 20, 'StringLiteral', '``', 'Survived'), at(22, 25, 'StringLiteral', '""', 'Killed')];
  const { source: out } = audit.applyAuditToSource(source, audit.auditOf({ files: { 'a.ts': { mutants } } }, { 'a.ts': source }).files['a.ts']);
  t.match(out, /equivalent next-line ConditionalExpression `false` @7-8: wording only/);
  t.match(out, /equivalent next-line StringLiteral @17-20: wording only/, 'a replacement with a backquote is named by place alone');
  t.notMatch(out, /Stryker disable/);
  const e = audit.equivalentsOf(out);
  const line = out.split('\n').findIndex((l) => l.includes('if (a || b)')) + 1;
  const moved = mutants.map((m) => ({ ...m, location: { start: { ...m.location.start, line }, end: { ...m.location.end, line } } }));
  t.same(moved.map((m) => audit.equivalentDirective(e, m) !== undefined), [false, true, true, false], 'each directive names its survivor, never its killed twin');
});
