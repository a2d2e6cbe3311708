// The Python example host's jcs-sha256 is a real RFC 8785 implementation: byte-identical to the core
// on every golden identity fixture (and rejects every negative one), and on tricky numbers and keys.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { PACKAGE_ROOT } from '../../version.js';
import { canonicalize } from '../../core/canonical.js';

interface Golden {
  positive: Array<{ name: string; context?: unknown; context_json?: string; canonical: string; identity: string }>;
  negative: Array<{ name: string; context?: unknown; context_json?: string }>;
}

async function python(cases: object[]): Promise<Array<{ canonical?: string; identity?: string; rejected?: string }>> {
  const { stdout } = await execa('python3', [path.join(PACKAGE_ROOT, 'src/harness/stdio/fixtures/jcs-check.py'), path.join(PACKAGE_ROOT, 'examples/python-host')], {
    input: cases.map((c) => JSON.stringify(c)).join('\n') + '\n',
  });
  return stdout.trim().split('\n').map((l) => JSON.parse(l));
}

t.test('golden identity fixtures: same canonical bytes and identity; every negative rejected', async (t) => {
  const golden = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'golden/identity.json'), 'utf8')) as Golden;
  const positive = await python(golden.positive.map((g) => ({ kind: 'identity', ...(g.context_json ? { json: g.context_json } : { value: g.context }) })));
  golden.positive.forEach((g, i) => {
    t.equal(positive[i]!.canonical, g.canonical, `${g.name}: canonical bytes`);
    t.equal(positive[i]!.identity, g.identity, `${g.name}: identity`);
  });
  const negative = await python(golden.negative.map((g) => ({ kind: 'identity', ...(g.context_json ? { json: g.context_json } : { value: g.context }) })));
  golden.negative.forEach((g, i) => t.ok(negative[i]!.rejected, `${g.name}: rejected (${negative[i]!.rejected ?? 'accepted!'})`));
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
  // Integral values beyond 2^53 (however written) are rejected by both, never rounded (§10.2).
  const outOfDomain = ['1e20', '9007199254740992', '1.7976931348623157e308', '-9.999999999999999e22'];
  const rejected = await python(outOfDomain.map((text) => ({ kind: 'canonical', json: `[${text}]` })));
  outOfDomain.forEach((text, i) => {
    t.ok(rejected[i]!.rejected, `${text} rejected by the Python host`);
    t.throws(() => canonicalize([Number(text)]), `${text} rejected by the core`);
  });
});
