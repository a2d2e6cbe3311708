// `agent-hooks-ctk identity`: spawned as a user would run it, after the build.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from '../version.js';
import { identityOutput } from './identity-command.js';
import { CliError } from './exit.js';

const BIN = path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js');
const dir = mkdtempSync(path.join(os.tmpdir(), 'ctk-identity-'));
const golden = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'golden', 'identity.json'), 'utf8')) as {
  positive: Array<{ name: string; context: unknown; canonical: string; identity: string }>;
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

const sample = golden.positive.find((f) => f.name === 'non-ASCII text and emoji')!;
const sampleText = JSON.stringify(sample.context, null, 2);

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
    t.equal(identityOutput(JSON.stringify(f.context), f.name), `${f.identity}\n`, f.name);
    t.equal(identityOutput(JSON.stringify(f.context), f.name, { canonical: true }), f.canonical, `${f.name} --canonical`);
  }
});

t.test('invalid contexts exit 1 with host_error:context_invalid and a remediation on stderr', async (t) => {
  const ctx = sample.context as Record<string, unknown>;
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
