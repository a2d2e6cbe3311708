import t from 'tap';
import path from 'node:path';
import { CatalogueError, compareClauses, loadCatalogue, parseCatalogue, renderCoverage, renderRequirements, renderThin, REQUIREMENTS_FILE, requirementsById, summarize, thinness } from './coverage.js';
import { defaultVectorPaths, loadVectors } from './load.js';
import { PACKAGE_ROOT } from '../version.js';

const ctx = { vectorIds: new Set(['AH-CTK-900-a', 'AH-CTK-901-b']), root: PACKAGE_ROOT };
const SELF = 'src/ctk/coverage.test.ts';

function problemsOf(text: string): string[] {
  try {
    parseCatalogue(text, 'cat.yaml', ctx);
  } catch (error) {
    if (error instanceof CatalogueError) return error.problems;
    throw error;
  }
  return [];
}

t.test('a valid catalogue loads and unpinned requirements are counted', async (t) => {
  const reqs = parseCatalogue(
    `requirements:
  - {id: REQ-7.4-a, clause: "7.4", text: fold applies, vectors: [AH-CTK-900-a], tests: []}
  - {id: REQ-3-b, clause: "3", text: eight points, vectors: [], tests: ["${SELF}: a valid catalogue loads"]}
  - {id: REQ-1.4-c, clause: "1.4", text: not a certification, declaration: "no run can observe how a claim is presented"}
  - {id: REQ-6.1a-d, clause: "6.1a", text: nothing pins this}
`,
    'cat.yaml',
    ctx,
  );
  t.equal(reqs.length, 4);
  const s = summarize(reqs);
  t.equal(s.uncovered, 1);
  t.same(s.clauses.map((c) => c.clause), ['1.4', '3', '6.1a', '7.4']);
  t.same(s.clauses.find((c) => c.clause === '6.1a')?.unpinned, ['REQ-6.1a-d']);
  t.equal(s.clauses.find((c) => c.clause === '1.4')?.declared, 1);
  t.match(renderCoverage(s), /3\/4 requirements pinned \(1 by declaration only\)/);
});

t.test('unknown vector ids, missing test files and unknown test names are errors', async (t) => {
  const problems = problemsOf(`requirements:
  - {id: REQ-1-a, clause: "1", text: x, vectors: [AH-CTK-999-nope]}
  - {id: REQ-1-b, clause: "1", text: x, tests: ["src/nowhere.test.ts: anything"]}
  - {id: REQ-1-c, clause: "1", text: x, tests: ["${SELF}: ${'unwritten' + '-name-' + 'zq'}"]}
  - {id: REQ-1-d, clause: "1", text: x, tests: ["no separator here"]}
`);
  t.equal(problems.length, 4);
  t.match(problems[0], /REQ-1-a.*unknown vector id "AH-CTK-999-nope"/);
  t.match(problems[1], /test file "src\/nowhere.test.ts" does not exist/);
  t.match(problems[2], /no test named/);
  t.match(problems[3], /must read "<file>: <test name>"/);
});

t.test('shape errors: duplicate ids, bad clause, unknown member, multi-line text, short declaration', async (t) => {
  const problems = problemsOf(`requirements:
  - {id: REQ-1-a, clause: "1", text: x, vectors: [AH-CTK-900-a]}
  - {id: REQ-1-a, clause: "§1", text: "two\\nlines", extra: 1, declaration: short}
`);
  t.ok(problems.some((p) => /duplicate id/.test(p)));
  t.ok(problems.some((p) => /clause must be a section number/.test(p)));
  t.ok(problems.some((p) => /unknown member "extra"/.test(p)));
  t.ok(problems.some((p) => /text must be one line/.test(p)));
  t.ok(problems.some((p) => /declaration must be a justification/.test(p)));
  t.match(problemsOf('nothing: here')[0], /top-level "requirements" list/);
  t.match(problemsOf('requirements: [')[0], /not valid YAML/);
});

t.test('clause order follows the section numbering', async (t) => {
  const sorted = ['10.3', '6.1a', '3', '6.1', '3.1', '6.2', '12.1a', '12.1'].sort(compareClauses);
  t.same(sorted, ['3', '3.1', '6.1', '6.1a', '6.2', '10.3', '12.1', '12.1a']);
});

t.test('the project catalogue pins every requirement against the real suite and test files', async (t) => {
  const vectors = loadVectors(defaultVectorPaths());
  const reqs = loadCatalogue(path.join(PACKAGE_ROOT, 'vectors', 'requirements.yaml'), {
    vectorIds: new Set(vectors.map((lv) => lv.vector.id)),
    root: PACKAGE_ROOT,
  });
  t.ok(reqs.length >= 120, `at least 120 requirements catalogued (got ${reqs.length})`);
  t.equal(summarize(reqs).uncovered, 0);
  const declared = reqs.filter((r) => r.declaration !== undefined && r.vectors.length === 0 && r.tests.length === 0);
  t.ok(declared.length <= 6, `declaration-only pins stay rare (got ${declared.length})`);
});

t.test('read without a suite, a catalogue is still validated, and each file is its own', async (t) => {
  const dir = t.testdir({
    'a.yaml': 'requirements:\n  - {id: REQ-1-a, clause: "1", text: one, vectors: [AH-CTK-999-not-loaded], tests: ["src/nowhere.test.ts: x"]}\n',
    'b.yaml': 'requirements:\n  - {id: REQ-1-a, clause: "2", text: two}\n',
    'bad.yaml': 'requirements:\n  - {id: REQ-1-a, clause: 7, text: x, tests: ["src/x.ts: y"]}\n',
  });
  t.equal(requirementsById(path.join(dir, 'a.yaml')).get('REQ-1-a')?.text, 'one', 'pins are not checked against a suite or test files');
  t.equal(requirementsById(path.join(dir, 'b.yaml')).get('REQ-1-a')?.clause, '2', 'another file is read, not the first one cached');
  t.throws(() => requirementsById(path.join(dir, 'bad.yaml')), { name: 'CatalogueError', message: /clause must be a section number[\s\S]*is not a \*\.test\.ts file/ });
  t.ok(requirementsById(REQUIREMENTS_FILE).size > 100, 'the package catalogue');
});

t.test('per requirement and thin: vectors, tests and the mutants that break each requirement', async (t) => {
  const reqs = parseCatalogue(
    `requirements:
  - {id: REQ-7.4-a, clause: "7.4", text: fold applies, vectors: [AH-CTK-900-a, AH-CTK-901-b], tests: []}
  - {id: REQ-7.4-b, clause: "7.4", text: one vector, vectors: [AH-CTK-900-a]}
  - {id: REQ-3-c, clause: "3", text: only a test, tests: ["${SELF}: per requirement and thin"]}
`,
    'cat.yaml',
    ctx,
  );
  const mutants: Record<string, string[]> = { 'REQ-7.4-a': ['m-one', 'm-two'], 'REQ-7.4-b': ['m-three'] };
  const s = summarize(reqs, (id) => mutants[id] ?? []);
  t.same(s.requirements.map((r) => r.mutants), [['m-one', 'm-two'], ['m-three'], []]);
  t.equal(s.clauses.find((c) => c.clause === '7.4')?.by_mutants, 2);
  t.match(renderCoverage(s), /§7\.4 +2\/2 +2 +0 +2 +0 +\n/);
  t.match(renderCoverage(s), /; 2 broken by a selftest mutant\n\nColumns, per spec clause/);
  const lines = renderRequirements(s).split('\n');
  t.match(lines[1], /^REQ-7\.4-a +§7\.4 +2 vectors \(AH-CTK-900, AH-CTK-901\); 0 tests; 2 mutants \(m-one, m-two\)$/, 'vector ids shortened to their number');
  t.match(lines[3], /^REQ-3-c +§3 +0 vectors; 1 test \(coverage\.test\.ts: per requirement and thin\); 0 mutants$/);
  t.equal(thinness(s.requirements[0]!, 2), undefined);
  t.equal(thinness(s.requirements[1]!, 2), 'only 1 vector');
  t.equal(thinness(s.requirements[2]!, 2), 'no vector, no mutant');
  t.equal(thinness(s.requirements[2]!, 0), 'no mutant');
  const thin = renderThin(s, 2);
  t.match(thin, /^Requirements with fewer than 2 vectors, or broken by no selftest mutant: 2 of 3\n/);
  t.match(thin, /\nREQ-7\.4-b +§7\.4 +only 1 vector: 1 vector \(AH-CTK-900\); 0 tests; 1 mutant \(m-three\)\n/);
  t.notMatch(thin, /REQ-7\.4-a/);
  t.match(thin, /\n2 with fewer than 2 vectors, 1 with no mutant\./);
});
