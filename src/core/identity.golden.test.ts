// golden/identity.json, recomputed by an independent implementation: a separately written §10.2 projection,
// json-canonicalize (a second RFC 8785 implementation) and node:crypto — then checked against the core.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { canonicalize as otherJcs } from 'json-canonicalize';
import { PACKAGE_ROOT } from '../version.js';
import { canonicalProjection, jcsSha256 } from './identity.js';
import { ContextInvalidError } from './errors.js';
import { parseJsonText } from './json-text.js';
import { INTERCEPTION_POINTS } from './types.js';

interface Positive { name: string; context: Record<string, unknown>; canonical: string; identity: string; same_identity_as?: string }
interface Negative { name: string; context?: unknown; context_json?: string; error: { reason: string; contains: string } }
const golden = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'golden', 'identity.json'), 'utf8')) as { positive: Positive[]; negative: Negative[] };

// §10.2, written out again from the spec text (not imported from the core).
const KEEP: Record<string, Record<string, true | string[]>> = {
  agent_startup: { agent_init: ['tools_registered'] },
  input: { input: ['content', 'role'] },
  pre_model_call: { model: ['id'], messages: true },
  post_model_call: { model: ['id'], response: ['content', 'tool_calls', 'finish_reason'] },
  pre_tool_call: { tool_call: ['id', 'name', 'args'] },
  post_tool_call: { tool_call: ['id', 'name', 'args'], tool_result: ['value', 'is_error'] },
  output: { output: ['content'] },
  agent_shutdown: { summary: ['reason'] },
};
function independentProjection(ctx: Record<string, unknown>): Record<string, unknown> {
  const keep: Record<string, true | string[]> = {
    spec: true, interception_point: true, timestamp: true, sequence: true, agent: ['id', 'framework'], session: ['id'], target: true,
    ...KEEP[ctx.interception_point as string],
  };
  const out: Record<string, unknown> = {};
  for (const [k, sub] of Object.entries(keep)) {
    if (!(k in ctx)) continue;
    if (sub === true) out[k] = ctx[k];
    else out[k] = Object.fromEntries(sub.filter((s) => s in (ctx[k] as object)).map((s) => [s, (ctx[k] as Record<string, unknown>)[s]]));
  }
  return out;
}
const nodeSha = (s: string): string => `sha256:${createHash('sha256').update(Buffer.from(s, 'utf8')).digest('hex')}`;

t.test('the golden file has the required coverage', async (t) => {
  t.ok(golden.positive.length + golden.negative.length >= 24, 'at least 24 fixtures');
  const points = new Set(golden.positive.map((f) => f.context.interception_point));
  for (const p of INTERCEPTION_POINTS) t.ok(points.has(p), `a positive fixture at ${p}`);
  t.ok(golden.positive.some((f) => f.same_identity_as), 'identity-invariance pairs');
  t.ok(golden.negative.length >= 8, 'negative fixtures');
  const names = new Set([...golden.positive, ...golden.negative].map((f) => f.name));
  t.equal(names.size, golden.positive.length + golden.negative.length, 'fixture names are unique');
});

t.test('positive fixtures: independent projection + json-canonicalize + node:crypto agree with the file and the core', async (t) => {
  for (const f of golden.positive) {
    const canonical = otherJcs(independentProjection(f.context));
    t.equal(canonical, f.canonical, `${f.name}: canonical bytes (independent)`);
    t.equal(nodeSha(canonical), f.identity, `${f.name}: identity (independent)`);
    t.equal(canonicalProjection(f.context), f.canonical, `${f.name}: canonicalProjection`);
    t.equal(jcsSha256(f.context), f.identity, `${f.name}: jcsSha256`);
    t.match(f.identity, /^sha256:[0-9a-f]{64}$/, `${f.name}: identity shape`);
  }
});

t.test('identity-invariance pairs share an identity', async (t) => {
  const byName = new Map(golden.positive.map((f) => [f.name, f]));
  for (const f of golden.positive.filter((x) => x.same_identity_as)) {
    const other = byName.get(f.same_identity_as!);
    t.ok(other, `${f.name}: partner ${f.same_identity_as} exists`);
    t.equal(f.identity, other?.identity, `${f.name} ≡ ${f.same_identity_as}`);
    t.not(JSON.stringify(f.context), JSON.stringify(other?.context), `${f.name}: the contexts really differ`);
  }
});

t.test('negative fixtures are rejected with host_error:context_invalid and a remediation', async (t) => {
  for (const f of golden.negative) {
    const ctx = f.context_json !== undefined ? parseJsonText(f.context_json) : f.context;
    let identity: string | undefined;
    try {
      identity = jcsSha256(ctx);
    } catch (error) {
      t.ok(error instanceof ContextInvalidError, `${f.name}: rejected with a ContextInvalidError`);
      const e = error as ContextInvalidError;
      t.equal(e.reason, f.error.reason, `${f.name}: reason`);
      t.ok(e.remediation.includes(f.error.contains), `${f.name}: remediation mentions ${JSON.stringify(f.error.contains)} (got ${e.remediation})`);
    }
    t.equal(identity, undefined, `${f.name}: no identity computed`);
  }
});

t.test('UTF-16 member order is what both canonicalizers produce', async (t) => {
  const f = golden.positive.find((x) => x.name === 'member names whose UTF-16 order differs from code-point order')!;
  t.ok(f.canonical.indexOf('\uD83D\uDE00') < f.canonical.indexOf('\uFB33'), 'U+1F600 before U+FB33');
  const neg0 = golden.positive.find((x) => x.name === 'negative zero')!;
  t.ok(Object.is((neg0.context.target as { n: number }).n, -0), 'the file really carries -0');
  t.match(neg0.canonical, /"n":0[,}]/, '-0 canonicalizes as 0');
});
