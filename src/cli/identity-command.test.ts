// `agent-hooks-ctk identity`: spawned as a user would run it, after the build.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { LosslessNumber, parse, stringify } from 'lossless-json';
import { PACKAGE_ROOT } from '../version.js';
import { identityOutput } from './identity-command.js';
import { CliError } from './exit.js';
import { goldenReport } from './identity-golden.js';

const BIN = path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js');
const dir = mkdtempSync(path.join(os.tmpdir(), 'ctk-identity-'));
const GOLDEN = path.join(PACKAGE_ROOT, 'golden', 'identity.json');
const DEFECTIVE = path.join(PACKAGE_ROOT, 'src', 'ctk', 'golden', 'fixtures', 'defective-golden.json');
// The golden file's positive fixtures, each context as its exact JSON text (numbers as written).
const golden = {
  positive: (parse(readFileSync(GOLDEN, 'utf8'), null, (s: string) => new LosslessNumber(s)) as {
    fixtures: Array<{ id: string; ctx: unknown; expect: { canonical_json?: string; context_identity?: string } }>;
  }).fixtures
    .filter((f) => f.expect.canonical_json !== undefined)
    .map((f) => ({ name: f.id, text: stringify(f.ctx)!, canonical: f.expect.canonical_json!, identity: f.expect.context_identity! })),
};

function run(args: string[], input?: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, 'identity', ...args], { input, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
function file(name: string, text: string): string {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
}
const STACK = /\n\s+at .+:\d+:\d+/;

const sample = golden.positive.find((f) => f.name === 'non-ascii-text-and-emoji')!;
const sampleText = JSON.stringify(JSON.parse(sample.text), null, 2);

t.test('prints sha256:<hex> for a file, for - and for stdin by default', async (t) => {
  const f = file('ctx.json', sampleText);
  t.same(run([f]), { code: 0, stdout: `${sample.identity}\n`, stderr: '' });
  t.same(run(['-'], sampleText), { code: 0, stdout: `${sample.identity}\n`, stderr: '' });
  t.same(run([], sampleText), { code: 0, stdout: `${sample.identity}\n`, stderr: '' });
});

t.test('--canonical prints exactly the hashed bytes, nothing after them', async (t) => {
  const r = run(['--canonical', file('ctx2.json', sampleText)]);
  t.equal(r.code, 0);
  t.equal(r.stdout, sample.canonical);
  t.equal(`sha256:${createHash('sha256').update(Buffer.from(r.stdout, 'utf8')).digest('hex')}`, sample.identity, 'hashing stdout reproduces the identity');
});

t.test('every golden positive fixture through the command function', async (t) => {
  for (const f of golden.positive) {
    t.equal(identityOutput(f.text, f.name), `${f.identity}\n`, f.name);
    // --canonical prints the hashed text (the projection); the file's canonical_json is the whole ctx, the same text only without optional members.
    const hashed = identityOutput(f.text, f.name, { canonical: true });
    t.equal(`sha256:${createHash('sha256').update(hashed, 'utf8').digest('hex')}`, f.identity, `${f.name} --canonical hashes to the identity`);
    if (`sha256:${createHash('sha256').update(f.canonical, 'utf8').digest('hex')}` === f.identity) t.equal(hashed, f.canonical, `${f.name} --canonical`);
  }
});

t.test('invalid contexts exit 1 with host_error:context_invalid and a remediation on stderr', async (t) => {
  const ctx = JSON.parse(sample.text) as Record<string, unknown>;
  const withTarget = (targetText: string): string =>
    JSON.stringify({ ...ctx, input: { content: 'x', role: 'user' }, target: '@@' }).replace('"@@"', targetText).replace('"input":{"content":"x","role":"user"}', `"input":${targetText}`);
  const cases: Array<[string, string, RegExp]> = [
    ['big integer (not pre-rounded by JSON.parse)', withTarget('{"content":{"id":9007199254740993},"role":"user"}'), /integer 9007199254740993 .*string-encode 64-bit identifiers/],
    ['int64', withTarget('{"content":{"id":9223372036854775807},"role":"user"}'), /exceeds ±\(2\^53−1\)/],
    ['lone surrogate', withTarget('{"content":"\\ud800","role":"user"}'), /lone Unicode surrogate/],
    ['overflowing number', withTarget('{"content":{"x":1e999},"role":"user"}'), /non-finite/],
    ['unknown point', JSON.stringify({ ...ctx, interception_point: 'pre_input' }), /interception_point/],
    ['not an object', '[1,2]', /must be a JSON object/],
    ['target alias', JSON.stringify({ ...ctx, target: { content: 'other', role: 'user' } }), /target must equal input/],
  ];
  for (const [label, text, re] of cases) {
    let thrown: unknown;
    try {
      identityOutput(text, 'stdin');
    } catch (error) {
      thrown = error;
    }
    t.ok(thrown instanceof CliError, `${label}: a CliError`);
    t.equal((thrown as CliError).exitCode, 1, `${label}: exit 1`);
    t.match((thrown as CliError).message, /^host_error:context_invalid: stdin: /, `${label}: reason`);
    t.match((thrown as CliError).message, re, `${label}: remediation`);
  }
  // End to end once: stderr, exit code, nothing on stdout.
  const r = run(['-'], cases[0]![1]);
  t.equal(r.code, 1);
  t.equal(r.stdout, '');
  t.match(r.stderr, /host_error:context_invalid: stdin: integer 9007199254740993/);
  t.notMatch(r.stderr, STACK, 'no stack trace');
  const deep = run(['-'], `{"a":${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
  t.equal(deep.code, 1, 'adversarially deep JSON text fails closed, no crash');
  t.match(deep.stderr, /host_error:context_invalid/);
  t.notMatch(deep.stderr, STACK, 'no stack trace');
  t.equal(run(['--max-depth', '1', file('d.json', sampleText)]).code, 1, '--max-depth lowers the bound');
});

t.test('bad input exits 2 naming the file', async (t) => {
  const missing = run([path.join(dir, 'nope.json')]);
  t.equal(missing.code, 2);
  t.match(missing.stderr, /nope\.json/);
  const broken = run([file('broken.json', '{"spec": ')]);
  t.equal(broken.code, 2);
  t.match(broken.stderr, /broken\.json is not valid JSON/);
  t.notMatch(broken.stderr, STACK, 'no stack trace');
  let dup: unknown;
  try {
    identityOutput('{"a":1,"a":2}', 'dup.json');
  } catch (error) {
    dup = error;
  }
  t.equal((dup as CliError | undefined)?.exitCode, 2, 'duplicate member names are not one context');
  t.equal(run(['--max-depth', 'zero', '-'], sampleText).code, 2, 'bad flag value');
});

t.test('invalid UTF-8 is refused, never hashed as U+FFFD; a BOM is ignored', async (t) => {
  const ctx = JSON.parse(sampleText) as Record<string, unknown>;
  const text = JSON.stringify({ ...ctx, agent: { ...(ctx.agent as object), name: 'MARK' } });
  const [before, after] = text.split('MARK') as [string, string];
  const bad = path.join(dir, 'bad-utf8.json');
  writeFileSync(bad, Buffer.concat([Buffer.from(before), Buffer.from([0xff]), Buffer.from(after)]));
  const r = run([bad]);
  t.equal(r.code, 2);
  t.equal(r.stdout, '', 'no identity printed');
  t.match(r.stderr, /bad-utf8\.json: not valid UTF-8 \(the first bad byte is at offset \d+\)/);
  const piped = spawnSync(process.execPath, [BIN, 'identity'], { input: readFileSync(bad), encoding: 'utf8' });
  t.equal(piped.status, 2, 'stdin too');
  t.same(run([file('bom.json', `\uFEFF${sampleText}`)]), { code: 0, stdout: `${sample.identity}\n`, stderr: '' });
});

t.test('--golden: our golden file passes, one line per fixture, exit 0', async (t) => {
  const r = run(['--golden', GOLDEN]);
  t.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  const fixtures = (JSON.parse(readFileSync(GOLDEN, 'utf8')) as { fixtures: unknown[] }).fixtures;
  t.equal(lines.length, fixtures.length + 1, 'one line per fixture and a summary');
  t.ok(lines.slice(0, -1).every((l) => l.startsWith('pass ')), 'every fixture passes');
  t.match(r.stdout, /^pass +number-float-1e\+21: canonical bytes and identity match$/m, '1e+21 is in domain (a float token)');
  t.match(r.stdout, /^pass +number-integer-2\^53: rejected as expected: host_error:context_invalid: integer 9007199254740992 at /m, '2^53 is rejected (an integer token)');
  t.match(lines.at(-1)!, new RegExp(`: ${fixtures.length} fixtures: ${fixtures.length} passed, 0 failed, 0 defective$`));
});

t.test('--golden: a deliberately defective fixture is reported as defective, not as a provider failure', async (t) => {
  const r = run(['--golden', DEFECTIVE]);
  t.equal(r.code, 0, 'the sound fixture passed and the defective one is not held against the provider');
  t.match(r.stdout, /^pass +sound-float-1e21: /m);
  t.match(
    r.stdout,
    /^defective defective-round-trip: fixture defect, counted neither for nor against the provider: its canonical_json renders the input number 9\.999999999999997e\+22 at target\.n, tool_result\.value\.n as 9\.999999999999996e\+22, which parses to a different double;.* our provider writes 9\.999999999999997e\+22, which round-trips/m,
  );
  t.match(r.stdout, /2 fixtures: 1 passed, 0 failed, 1 defective \(a defective fixture contradicts RFC 8785 or §10\.2 by itself; it is not a pass\)/);
});

t.test('--golden: a mismatch fails (exit 1) naming the fixture and the first difference', async (t) => {
  const doc = JSON.parse(readFileSync(DEFECTIVE, 'utf8')) as { fixtures: Array<{ id: string; ctx: unknown; expect: Record<string, unknown> }> };
  const sound = doc.fixtures[0]!;
  const wrong = {
    fixtures: [
      { ...sound, id: 'expects-rejection-of-1e21', expect: { error: 'host_error:context_invalid' } },
      { ...sound, id: 'wrong-identity', expect: { context_identity: 'sha256:' + '0'.repeat(64) } },
      { ...sound, id: 'ok', expect: sound.expect },
    ],
  };
  const report = goldenReport(file('wrong.json', JSON.stringify(wrong).replace(/"n":1e\+21/g, '"n":1e21')));
  const r = { code: report.exitCode, stdout: report.text };
  t.equal(r.code, 1);
  t.match(r.stdout, /^FAIL +expects-rejection-of-1e21: expected an error \(host_error:context_invalid\), but our provider accepted the context: sha256:/m);
  t.match(r.stdout, /^FAIL +wrong-identity: context_identity: expected sha256:0{64}, ours sha256:/m);
  t.match(r.stdout, /^pass +ok: /m);
  t.match(r.stdout, /3 fixtures: 1 passed, 2 failed, 0 defective\n$/);
});

t.test('--golden: a file that is not a golden file exits 2 naming the file and the fixture/field; no stack trace', async (t) => {
  const cases: Array<[string, string, RegExp]> = [
    ['missing', path.join(dir, 'absent.json'), /golden file .*absent\.json cannot be read \(ENOENT\)/],
    ['not JSON', file('g1.json', '{"fixtures": ['), /golden file .*g1\.json is not valid JSON/],
    ['no fixtures array', file('g2.json', '{"positive": []}'), /g2\.json must be a JSON object with a "fixtures" array/],
    ['empty', file('g3.json', '{"fixtures": []}'), /g3\.json has no fixtures/],
    ['no id', file('g4.json', '{"fixtures": [{"ctx": {}, "expect": {"error": "x"}}]}'), /g4\.json: fixtures\[0\]: id must be a non-empty string/],
    ['no ctx', file('g5.json', '{"fixtures": [{"id": "a", "expect": {"error": "x"}}]}'), /g5\.json: fixtures\[0\] \(a\): ctx is missing/],
    ['both expectations', file('g6.json', '{"fixtures": [{"id": "a", "ctx": {}, "expect": {"error": "x", "canonical_json": "{}"}}]}'), /fixtures\[0\] \(a\): expect must carry either canonical_json\/context_identity or error, not both/],
    ['canonical not a string', file('g7.json', '{"fixtures": [{"id": "a", "ctx": {}, "expect": {"canonical_json": 1}}]}'), /fixtures\[0\] \(a\): expect\.canonical_json must be a string/],
    ['duplicate id', file('g8.json', '{"fixtures": [{"id": "a", "ctx": {}, "expect": {"error": "x"}}, {"id": "a", "ctx": {}, "expect": {"error": "x"}}]}'), /fixtures\[1\] repeats the id "a"/],
  ];
  for (const [label, f, re] of cases) {
    let thrown: unknown;
    try {
      goldenReport(f);
    } catch (error) {
      thrown = error;
    }
    t.equal((thrown as CliError | undefined)?.exitCode, 2, `${label}: exit 2`);
    t.match((thrown as Error).message, re, label);
  }
  // End to end once: exit 2, the message on stderr, nothing on stdout, no stack trace.
  const r = run(['--golden', cases[5]![1]]);
  t.equal(r.code, 2);
  t.equal(r.stdout, '');
  t.match(r.stderr, cases[5]![2]);
  t.notMatch(r.stderr, STACK, 'no stack trace');
  const both = run(['--golden', GOLDEN, file('ctx-extra.json', sampleText)]);
  t.equal(both.code, 2, '--golden with a context file is a usage error');
  t.match(both.stderr, /--golden FILE checks a golden file on its own/);
});
