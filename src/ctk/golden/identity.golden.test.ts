// golden/identity.json, recomputed by an independent implementation: the file re-read with every number kept as
// its token, the CTK's own §10.2 projection (identity-check.ts) and a separately written number rule, json-canonicalize (a second RFC 8785
// implementation) and node:crypto — then checked against the core.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { parse } from 'lossless-json';
import { canonicalize as otherJcs } from 'json-canonicalize';
import { PACKAGE_ROOT } from '../../version.js';
import { canonicalProjection, jcsSha256 } from '../../core/identity.js';
import { ContextInvalidError } from '../../core/errors.js';
import { INTERCEPTION_POINTS } from '../../core/types.js';
import { readGoldenFile } from './file.js';
import { identityProjection } from '../identity-check.js';
import { checkGolden } from './check.js';
import { canonicalize } from '../../core/canonical.js';
import { validateEnvelope } from '../../core/envelope.js';
import { validateContextSchema } from '../../core/schemas.js';
import type { JsonObject } from '../../core/types.js';

const GOLDEN = path.join(PACKAGE_ROOT, 'golden', 'identity.json');
const golden = readGoldenFile(GOLDEN);
const positive = golden.fixtures.filter((f) => f.expect.kind === 'identity');
const negative = golden.fixtures.filter((f) => f.expect.kind === 'error');
const expectOf = (f: (typeof golden.fixtures)[number]) => f.expect as { canonical_json: string; context_identity: string };

/** The file as text, every number a Token: what the independent side works from. */
class Token {
  constructor(readonly text: string) {}
}
const raw = parse(readFileSync(GOLDEN, 'utf8'), null, (s: string) => new Token(s)) as { fixtures: Array<{ id: string; ctx: Record<string, unknown> }> };
const rawCtx = new Map(raw.fixtures.map((f) => [f.id, f.ctx]));

// §10.2, written out again from the spec text (not imported from the core): the CTK's own projection.
const independentProjection = (ctx: Record<string, unknown>): Record<string, unknown> => identityProjection(ctx)!;
/** The number rule, from the spec text: an integer token beyond ±(2^53−1) has no canonical form; others are their double. */
function independentNumbers(v: unknown): unknown {
  if (v instanceof Token) {
    if (/^-?\d+$/.test(v.text)) {
      const n = BigInt(v.text);
      if (n > 9007199254740991n || n < -9007199254740991n) throw new Error(`integer token ${v.text} outside ±(2^53−1)`);
    }
    const d = Number(v.text);
    if (!Number.isFinite(d)) throw new Error(`non-finite ${v.text}`);
    return d;
  }
  if (Array.isArray(v)) return v.map(independentNumbers);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, independentNumbers(x)]));
  return v;
}
const nodeSha = (s: string): string => `sha256:${createHash('sha256').update(Buffer.from(s, 'utf8')).digest('hex')}`;

t.test('the golden file has the required coverage', async (t) => {
  t.ok(golden.fixtures.length >= 24, 'at least 24 fixtures');
  const points = new Set(positive.map((f) => (f.ctx as { interception_point: string }).interception_point));
  for (const p of INTERCEPTION_POINTS) t.ok(points.has(p), `a positive fixture at ${p}`);
  t.ok(positive.some((f) => f.same_identity_as), 'identity-invariance pairs');
  t.ok(negative.length >= 8, 'negative fixtures');
  // Every kind of the §10.2 token rule (HARNESS.md "Numbers") has a fixture.
  const kinds = ['number-float-1e+21', 'number-float-1e21', 'number-float-9.999999999999997e+22', 'number-float-1.5e300', 'number-float-1e20',
    'number-float-9007199254740993.0', 'number-float-over-long-decimal', 'number-float-underflow', 'number-float-1.0', 'number-float-1E2',
    'number-float-2e0', 'number-float-negative-zero', 'number-integer-negative-zero', 'number-integer-2^53', 'number-integer-minus-2^53',
    'number-integer-2^53+1', 'number-integer-int64', 'number-integer-1e21-as-digits', 'number-float-overflow', 'number-integer-max-safe-and-neighbours'];
  for (const id of kinds) t.ok(golden.fixtures.some((f) => f.id === id), `fixture ${id}`);
});

// The published format: canonical_json is RFC 8785 of the whole ctx as given, context_identity is jcs-sha256
// over the §10.2 projection. Each is recomputed on its own.
t.test('positive fixtures: independent projection, number rule, json-canonicalize and node:crypto agree with the file and the core', async (t) => {
  for (const f of positive) {
    const { canonical_json, context_identity } = expectOf(f);
    const raw = rawCtx.get(f.id)!;
    t.equal(otherJcs(independentNumbers(raw)), canonical_json, `${f.id}: canonical bytes of the whole ctx (independent)`);
    const projected = otherJcs(independentNumbers(independentProjection(raw)));
    t.equal(nodeSha(projected), context_identity, `${f.id}: identity over the projection (independent)`);
    t.equal(canonicalize(f.ctx), canonical_json, `${f.id}: core canonicalize of the whole ctx`);
    t.equal(canonicalProjection(f.ctx), projected, `${f.id}: canonicalProjection`);
    t.equal(jcsSha256(f.ctx), context_identity, `${f.id}: jcsSha256`);
    t.match(context_identity, /^sha256:[0-9a-f]{64}$/, `${f.id}: identity shape`);
  }
});

t.test('fixtures where canonical_json and the hashed projection differ: optional and namespaced members present', async (t) => {
  const differ = positive.filter((f) => nodeSha(expectOf(f).canonical_json) !== expectOf(f).context_identity);
  t.ok(differ.length >= 6, `${differ.length} fixtures whose canonical_json is not the hashed text`);
  for (const id of ['pre-tool-call-with-optional-trace-and-extension-fields', 'output-with-optional-and-namespaced-members', 'post-model-call-with-optional-model-subfields-and-an-extension']) {
    t.ok(differ.some((f) => f.id === id), `${id} is one of them`);
  }
  const full = positive.find((f) => f.id === 'output-with-optional-and-namespaced-members')!;
  for (const member of ['"name":"Refund bot"', '"trace":', '"budgets":', '"extensions":']) t.ok(expectOf(full).canonical_json.includes(member), `its canonical_json lists ${member}`);
  t.equal(full.same_identity_as, 'output', 'and its identity is that of the bare output fixture');
  const results = checkGolden(golden);
  t.same(results.filter((r) => r.status !== 'pass'), [], 'identity --golden passes every fixture of the file');
});

t.test('number fixtures rejected by the core are rejected by the independent rule too', async (t) => {
  for (const f of negative.filter((x) => x.id.startsWith('number-'))) {
    t.throws(() => independentNumbers(independentProjection(rawCtx.get(f.id)!)), `${f.id}: independent rejection`);
  }
});

t.test('identity-invariance pairs share an identity', async (t) => {
  const byId = new Map(golden.fixtures.map((f) => [f.id, f]));
  for (const f of positive.filter((x) => x.same_identity_as)) {
    const other = byId.get(f.same_identity_as!);
    t.ok(other, `${f.id}: partner ${f.same_identity_as} exists`);
    t.equal(expectOf(f).context_identity, other && expectOf(other).context_identity, `${f.id} ≡ ${f.same_identity_as}`);
    t.not(JSON.stringify(rawCtx.get(f.id)), JSON.stringify(rawCtx.get(f.same_identity_as!)), `${f.id}: the contexts really differ`);
  }
});

t.test('negative fixtures are rejected with host_error:context_invalid and a remediation', async (t) => {
  for (const f of negative) {
    let identity: string | undefined;
    try {
      identity = jcsSha256(f.ctx);
    } catch (error) {
      t.ok(error instanceof ContextInvalidError, `${f.id}: rejected with a ContextInvalidError`);
      const e = error as ContextInvalidError;
      t.equal(e.reason, (f.expect as { error: unknown }).error, `${f.id}: reason`);
      t.ok(e.remediation.includes(f.remediation_contains!), `${f.id}: remediation mentions ${JSON.stringify(f.remediation_contains)} (got ${e.remediation})`);
    }
    t.equal(identity, undefined, `${f.id}: no identity computed`);
  }
});

t.test('UTF-16 member order is what both canonicalizers produce; -0 is 0', async (t) => {
  const f = positive.find((x) => x.id === 'member-names-whose-utf-16-order-differs-from-code-point-order')!;
  const canonical = expectOf(f).canonical_json;
  t.ok(canonical.indexOf('\uD83D\uDE00') < canonical.indexOf('\uFB33'), 'U+1F600 before U+FB33');
  const neg0 = positive.find((x) => x.id === 'number-negative-zero-in-arrays')!;
  t.equal(((rawCtx.get(neg0.id)!.target as { n: Token }).n).text, '-0', 'the file really carries -0');
  t.match(expectOf(neg0).canonical_json, /"n":0[,}]/, '-0 canonicalizes as 0');
});

t.test('schema and envelope agree on the golden identity fixtures', async (t) => {
  const errs = (r: { ok: true } | { ok: false; errors: string[] }): string => (r.ok ? '' : r.errors.join(' | '));
  for (const f of golden.fixtures.filter((x) => x.expect.kind === 'identity')) {
    t.ok(validateEnvelope(f.ctx).ok, `${f.id}: envelope`);
    const r = validateContextSchema(f.ctx);
    // One fixture deliberately carries an unknown top-level member: the envelope tolerates it, the closed schema does not.
    if (f.id.includes('unknown-member')) t.match(errs(r), /unknown member "x_vendor_debug"/, f.id);
    else t.ok(r.ok, `${f.id}: ${errs(r)}`);
  }
  // Value-domain rejections (numbers, surrogates, depth) and the §4.2 alias are not expressible in JSON Schema; everything else is.
  const domain = /2\^53|exceeds|string-encode|non-finite|surrogate|nesting|target must equal/;
  for (const f of golden.fixtures.filter((x) => x.expect.kind === 'error' && !domain.test(x.remediation_contains ?? ''))) {
    t.notOk(validateContextSchema(f.ctx as JsonObject).ok, `${f.id}: the schema rejects it too`);
  }
});
