// The Python kit's jcs-sha256 (python/agent_hooks_ctk/jcs.py, which examples/python-host runs on) is a real RFC 8785 implementation: byte-identical to the core
// on every golden identity fixture (and rejects every negative one), and on tricky numbers and keys.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { createHash } from 'node:crypto';
import { LosslessNumber, parse, stringify } from 'lossless-json';
import { PACKAGE_ROOT } from '../../version.js';
import { canonicalize } from '../../core/canonical.js';
import { parseJsonText } from '../../core/json-text.js';

interface Golden {
  fixtures: Array<{ id: string; ctx: unknown; expect: { canonical_json?: string; context_identity?: string; error?: unknown } }>;
}

async function python(cases: object[]): Promise<Array<{ canonical?: string; identity?: string; rejected?: string }>> {
  const { stdout } = await execa('python3', [path.join(PACKAGE_ROOT, 'src/harness/stdio/fixtures/jcs-check.py'), path.join(PACKAGE_ROOT, 'python')], {
    input: cases.map((c) => JSON.stringify(c)).join('\n') + '\n',
  });
  return stdout.trim().split('\n').map((l) => JSON.parse(l));
}

t.test('golden identity fixtures: same canonical bytes and identity; every error fixture rejected', async (t) => {
  // Every number kept as written, so Python's json sees each token (int or float) exactly as the file has it.
  const golden = parse(readFileSync(path.join(PACKAGE_ROOT, 'golden/identity.json'), 'utf8'), null, (s: string) => new LosslessNumber(s)) as Golden;
  const results = await python(golden.fixtures.map((g) => ({ kind: 'identity', json: stringify(g.ctx) })));
  golden.fixtures.forEach((g, i) => {
    if (g.expect.error !== undefined) t.ok(results[i]!.rejected, `${g.id}: rejected (${results[i]!.rejected ?? 'accepted!'})`);
    else {
      // canonical_json is RFC 8785 of the whole ctx; the hashed projection is the same text only without optional members.
      if (createHash('sha256').update(g.expect.canonical_json!, 'utf8').digest('hex') === g.expect.context_identity!.slice(7)) {
        t.equal(results[i]!.canonical, g.expect.canonical_json, `${g.id}: canonical bytes`);
      }
      t.equal(results[i]!.identity, g.expect.context_identity, `${g.id}: identity`);
    }
  });
});

t.test('numbers and member order agree with the core canonicalizer', async (t) => {
  const values: unknown[] = [
    [0, -0, 1, -1, 0.1, 0.2 + 0.1, 1.5, -2.25, 100, 1e-6, 1e-7, 123456.789, 5e-324, 2 ** 53 - 1, -(2 ** 53 - 1), 0.000001234, 1.2e-10, 4.35, 1.5e-300, 123.456e-20],
    { b: 1, a: 2, '\u00e9': 3, '\u{1f600}': 4, '\uffff': 5, A: 6, '': 7, aa: 8, '\u0000x': 9 },
    ['quote " backslash \\ newline \n tab \t bell \u0007 del \u007f nbsp \u00a0 line-sep \u2028 emoji \u{1f600}'],
    { nested: { z: [true, false, null], y: { x: 'é' } } },
  ];
  const got = await python(values.map((value) => ({ kind: 'canonical', json: JSON.stringify(value) })));
  values.forEach((value, i) => t.equal(got[i]!.canonical, canonicalize(value), `case ${i}`));
  // §10.2 by token: an integer token beyond ±(2^53−1) is rejected by both; a finite float token is in domain in both.
  const outOfDomain = ['9007199254740992', '-9007199254740992', '1000000000000000000000', '1e400'];
  const rejected = await python(outOfDomain.map((text) => ({ kind: 'canonical', json: `[${text}]` })));
  outOfDomain.forEach((text, i) => {
    t.ok(rejected[i]!.rejected, `${text} rejected by the Python host`);
    t.throws(() => canonicalize(parseJsonText(`[${text}]`)), `${text} rejected by the core`);
  });
  const floats = ['1e20', '1e21', '1.7976931348623157e308', '-9.999999999999999e22', '9007199254740993.0', '1E2', '-0.0', '1e-400'];
  const accepted = await python(floats.map((text) => ({ kind: 'canonical', json: `[${text}]` })));
  floats.forEach((text, i) => t.equal(accepted[i]!.canonical, canonicalize(parseJsonText(`[${text}]`)), `${text}: same canonical text (${accepted[i]!.canonical ?? accepted[i]!.rejected})`));
});
