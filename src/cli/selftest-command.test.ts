import t from 'tap';
import path from 'node:path';
import { PACKAGE_ROOT } from '../version.js';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { runCliInProcess as cli } from './cli.test.util.js';

/** The package suite's vector file whose id starts with `id`. */
const vectorFile = (id: string) => path.join(PACKAGE_ROOT, 'vectors', readdirSync(path.join(PACKAGE_ROOT, 'vectors')).find((f) => f.startsWith(`${id}-`))!);

t.test('selftest CLI: usage errors exit 2, a survivor exits 1 with the JSON shape', async (t) => {
  const bare = await cli(['selftest']);
  t.equal(bare.code, 2, '--mutants is required');
  t.match(bare.err, /pass --mutants .* \(or --list to list the mutants\)/);
  t.equal((await cli(['selftest', '--list', '--only', 'no-such-mutant'])).code, 2);
  t.match((await cli(['selftest', '--mutants', '--require-marginal'])).err, /--require-marginal: goes with --marginal/);
  t.match((await cli(['selftest', '--mutants', '--marginal'])).err, /--marginal: give the vectors/);
  const unknown = await cli(['selftest', '--mutants', '--only', 'no-such-mutant']);
  t.equal(unknown.code, 2);
  t.match(unknown.err, /unknown mutant id no-such-mutant/);
  const file = vectorFile('AH-CTK-201');
  const survivor = await cli(['selftest', '--mutants', '--json', '--only', 'transform-value-leaks', '--vectors', file]);
  t.equal(survivor.code, 1);
  const json = JSON.parse(survivor.out) as { mutants: Array<{ id: string; description: string; clause: string; killed_by: string[] }>; survived: number };
  t.equal(json.survived, 1);
  t.same(Object.keys(json.mutants[0]!).sort(), ['clause', 'description', 'id', 'killed_by', 'requirement']);
  t.equal((json.mutants[0] as unknown as { requirement: string }).requirement, 'REQ-10.3-projection-transform');
  const killed = await cli(['selftest', '--mutants', '--only', 'path-emits-no-hook', '--fast', '--vectors', vectorFile('AH-CTK-200')]);
  t.equal(killed.code, 0);
  t.match(killed.out, /1\/1 mutants killed, 0 survived/);
});

t.test('selftest --list: every mutant with its requirement and configuration, in text and JSON; nothing is run', async (t) => {
  const text = await cli(['selftest', '--list']);
  t.equal(text.code, 0);
  t.match(text.out, /^id\s+clause\s+requirement\s+what the broken host does\n/);
  t.match(text.out, /\ntool-starts-before-composition\s+§12\.2\s+REQ-12\.2-parallel-tool-after-pre\s+a tool starts once .* \(also breaks REQ-7-composition-before-action\)\n/);
  t.match(text.out, /\npost-tool-deny-reexecutes\s+§6\.1\s+REQ-6\.1-no-reexecute\s+/);
  t.match(text.out, /\nincremental-release-ahead-of-verdict .*\[incremental configuration\]/);
  t.match(text.out, /\n\d+ mutants \(\d+ of the incremental configuration, \d+ of the CTK session host\)/);
  t.match(text.out, /\nsession-holds-ignored .*\[session configuration\]/);
  const json = JSON.parse((await cli(['selftest', '--list', '--json', '--only', 'post-model-deny-reexecutes', 'incremental-reads-ahead'])).out) as { mutants: Array<Record<string, unknown>> };
  t.same(json.mutants, [
    { id: 'incremental-reads-ahead', clause: '12.1', requirement: 'REQ-12.1-incremental-deny-terminates', also_breaks: [], configuration: 'incremental', description: json.mutants[0]!.description },
    { id: 'post-model-deny-reexecutes', clause: '6.1', requirement: 'REQ-6.1-no-reexecute', also_breaks: [], configuration: 'buffered', description: 'after a deny at post_model_call the host calls the model again (a retry) and discards that response too' },
  ], 'in catalogue order');
});

t.test('selftest on a small corpus: kills first, one line each; the survivors summarised by clause, not listed', async (t) => {
  const r = await cli(['selftest', '--mutants', '--vectors', vectorFile('AH-CTK-215')]);
  t.equal(r.code, 1, 'survivors still exit 1 without --marginal');
  const lines = r.out.split('\n');
  const firstKill = lines.findIndex((l) => l.startsWith('killed '));
  const summary = lines.findIndex((l) => /^\d+ mutants survive these vectors, by clause: §/.test(l));
  t.ok(firstKill > 0 && summary > firstKill, 'the kills come before the survivors');
  t.notMatch(r.out, /SURVIVED/, 'no wall of SURVIVED lines');
  t.match(r.out, /killed {3}post-tool-deny-reexecutes §6\.1: .* by 1 vector \(AH-CTK-215-deny-post-tool-result-discarded\)/);
  const few = await cli(['selftest', '--mutants', '--vectors', vectorFile('AH-CTK-215'), '--only', 'post-tool-deny-reexecutes', 'transform-value-leaks']);
  t.match(few.out, /\nSURVIVED transform-value-leaks §10\.3: the record keeps transform\.value\n/, 'a few survivors are listed one by one');
});

t.test('selftest --marginal: what the given vectors kill that the rest of the combined corpus does not; exit 0 unless --require-marginal', async (t) => {
  // A copy of a package vector under a new id adds nothing: the package vector kills the same mutants.
  const dir = t.testdir({});
  const source = JSON.parse(readFileSync(vectorFile('AH-CTK-215'), 'utf8')) as { id: string };
  writeFileSync(path.join(dir, 'AH-CTK-698-copy.json'), JSON.stringify({ ...source, id: 'AH-CTK-698-copy' }));
  const only = ['post-tool-deny-reexecutes', 'post-tool-deny-incorporated', 'transform-value-leaks'];
  const copy = await cli(['selftest', '--mutants', '--marginal', '--only', ...only, '--vectors', path.join(dir, 'AH-CTK-698-copy.json')]);
  t.equal(copy.code, 0, copy.err);
  t.match(copy.out, /Only the given vectors kill, in the combined corpus \(the package suite with them in it\): 0\n/);
  t.match(copy.out, /Killed beyond the package suite \(the given vectors kill, the suite does not\): 0\n/);
  t.match(copy.out, /killed post-tool-deny-reexecutes §6\.1 by 1 vector \(AH-CTK-698-copy\), also by AH-CTK-2\d\d-/);
  t.match(copy.out, /\n2\/3 mutants killed by the given vectors; 0 by them alone in the combined corpus, 0 beyond the package suite\n/);
  const required = await cli(['selftest', '--mutants', '--marginal', '--require-marginal', '--only', ...only, '--vectors', path.join(dir, 'AH-CTK-698-copy.json')]);
  t.equal(required.code, 1, '--require-marginal: nothing marginal is a failure');

  // A package vector given as itself: the suite without it is what it is compared with.
  const json = await cli(['selftest', '--mutants', '--marginal', '--json', '--only', 'strictest-majority-allows', 'post-tool-deny-reexecutes', '--vectors', vectorFile('AH-CTK-661')]);
  t.equal(json.code, 0, json.err);
  const out = JSON.parse(json.out) as { in_suite: string[]; only_given: string[]; beyond_suite: string[]; also_killed_by: Record<string, string | null>; given: { mutants: Array<{ id: string; requirement: string; killed_by: string[] }> } };
  t.same(out.in_suite, ['AH-CTK-661-strictest-one-deny-among-allows']);
  t.same(out.only_given, ['strictest-majority-allows'], 'AH-CTK-661 is the only vector that kills the quorum mutant');
  t.same(out.beyond_suite, [], 'nothing beyond the package suite: the vector is in it');
  t.same(out.also_killed_by, { 'strictest-majority-allows': null });
  t.equal(out.given.mutants.find((m) => m.id === 'strictest-majority-allows')?.requirement, 'REQ-7.2-no-quorum-no-permissive');
  const text = await cli(['selftest', '--mutants', '--marginal', '--require-marginal', '--only', 'strictest-majority-allows', '--vectors', vectorFile('AH-CTK-661')]);
  t.equal(text.code, 0);
  t.match(text.out, /Only the given vectors kill, in the combined corpus \(the package suite with them in it\): 1\n  strictest-majority-allows §7\.2 \(REQ-7\.2-no-quorum-no-permissive\): .* — by 1 vector \(AH-CTK-661-strictest-one-deny-among-allows\)/);
  t.match(text.out, /Killed beyond the package suite: none can be, every given vector is already in it/);
});
