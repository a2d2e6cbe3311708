// Checks a golden identity file against an identity provider (ours by default: the core's jcs-sha256).
// Each fixture passes, fails (the provider disagrees with a sound fixture), or is reported defective (the
// fixture contradicts RFC 8785 / §10.2 by itself, defects.ts). A defective fixture is never a pass: the
// provider is still checked against what the fixture can soundly say (acceptance, round-tripping numbers,
// equality everywhere but the defective numbers) and fails if it does not hold.
import { canonicalProjection, sha256Hex } from '../../core/identity.js';
import { ContextInvalidError } from '../../core/errors.js';
import { brief } from '../json.js';
import type { GoldenFile, GoldenFixture } from './file.js';
import { canonicalDifferences, expectationDefects, parseCanonicalTokens, type FixtureDefect } from './defects.js';

export type GoldenStatus = 'pass' | 'fail' | 'defective';

export interface GoldenResult {
  id: string;
  status: GoldenStatus;
  /** One paragraph: what matched, what differed, or what is wrong with the fixture. */
  detail: string;
}

/** An identity provider under test: canonical text of a context (throws ContextInvalidError to reject), and its identity. */
export interface GoldenProvider {
  canonical(ctx: unknown): string;
  identity(canonical: string): string;
}

/** The core's §10.2 jcs-sha256: the projection's RFC 8785 bytes, then "sha256:" + hex. */
export const CORE_GOLDEN_PROVIDER: GoldenProvider = { canonical: (ctx) => canonicalProjection(ctx), identity: sha256Hex };

type Computed = { ok: true; canonical: string; identity: string } | { ok: false; reason: string; remediation: string };

export function checkGolden(golden: GoldenFile, provider: GoldenProvider = CORE_GOLDEN_PROVIDER): GoldenResult[] {
  const computed = new Map<string, Computed>();
  const results = golden.fixtures.map((f) => {
    const ours = compute(provider, f.ctx);
    computed.set(f.id, ours);
    return f.expect.kind === 'error' ? checkRejection(f, ours) : checkIdentity(f, ours);
  });
  // Ours: identity-invariance pairs must share our identity too.
  golden.fixtures.forEach((f, i) => {
    const a = computed.get(f.id);
    const b = f.same_identity_as === undefined ? undefined : computed.get(f.same_identity_as);
    if (results[i]!.status === 'pass' && a?.ok && b?.ok && a.identity !== b.identity) {
      results[i] = { id: f.id, status: 'fail', detail: `our identity ${a.identity} differs from that of ${f.same_identity_as} (${b.identity}), which the fixture says it equals` };
    }
  });
  return results;
}

function compute(provider: GoldenProvider, ctx: unknown): Computed {
  try {
    const canonical = provider.canonical(ctx);
    return { ok: true, canonical, identity: provider.identity(canonical) };
  } catch (error) {
    if (error instanceof ContextInvalidError) return { ok: false, reason: error.reason, remediation: error.remediation };
    throw error;
  }
}

const REASON = /^[a-z_]+:[a-z_]+$/;

function checkRejection(f: GoldenFixture, ours: Computed): GoldenResult {
  const expected = f.expect.kind === 'error' ? f.expect.error : undefined;
  const expectedText = typeof expected === 'string' ? expected : brief(expected, 80);
  if (ours.ok) return { id: f.id, status: 'fail', detail: `expected an error (${expectedText}), but our provider accepted the context: ${ours.identity}` };
  if (typeof expected === 'string' && REASON.test(expected) && expected !== ours.reason) {
    return { id: f.id, status: 'fail', detail: `expected ${expected}, but our provider rejected with ${ours.reason}: ${ours.remediation}` };
  }
  if (f.remediation_contains !== undefined && !ours.remediation.includes(f.remediation_contains)) {
    return { id: f.id, status: 'fail', detail: `rejected, but the remediation does not mention ${JSON.stringify(f.remediation_contains)}: ${ours.remediation}` };
  }
  return { id: f.id, status: 'pass', detail: `rejected as expected: ${ours.reason}: ${ours.remediation}` };
}

function checkIdentity(f: GoldenFixture, ours: Computed): GoldenResult {
  if (f.expect.kind !== 'identity') throw new Error('checkIdentity needs an identity expectation');
  const { canonical_json: canonical, context_identity: identity } = f.expect;
  const defects = expectationDefects(f.ctx, canonical, identity);
  const defectNote = defects.length > 0 ? ` The fixture is defective too: ${defectText(defects)}.` : '';
  if (!ours.ok) {
    return { id: f.id, status: 'fail', detail: `expected ${canonical !== undefined ? 'canonical bytes' : `identity ${identity}`}, but our provider rejected the context: ${ours.reason}: ${ours.remediation}.${defectNote}` };
  }
  if (defects.length === 0) {
    const problems: string[] = [];
    if (canonical !== undefined && ours.canonical !== canonical) problems.push(firstDifference(canonical, ours.canonical));
    if (identity !== undefined && ours.identity !== identity) problems.push(`context_identity: expected ${identity}, ours ${ours.identity}`);
    if (problems.length === 0) return { id: f.id, status: 'pass', detail: canonical !== undefined ? 'canonical bytes and identity match' : 'identity matches' };
    return { id: f.id, status: 'fail', detail: problems.join('; ') };
  }
  // Defective: ours must be sound (self-consistent, round-tripping) and agree everywhere the fixture is.
  const ownDefects = expectationDefects(f.ctx, ours.canonical, ours.identity);
  if (ownDefects.length > 0) {
    return { id: f.id, status: 'fail', detail: `our provider's output is defective: ${defectText(ownDefects)}.${defectNote}` };
  }
  let ourNumbers = '';
  if (canonical !== undefined) {
    const expectedTokens = parseCanonicalTokens(canonical);
    const oursTokens = parseCanonicalTokens(ours.canonical);
    if (expectedTokens.ok && oursTokens.ok) {
      const diff = canonicalDifferences(expectedTokens.value, oursTokens.value);
      const excused = new Set(defects.flatMap((d) => d.paths ?? []));
      if (diff.other.length > 0 || diff.numbers.some((n) => !excused.has(n.path))) {
        return { id: f.id, status: 'fail', detail: `${firstDifference(canonical, ours.canonical)} (beyond the fixture's defect).${defectNote}` };
      }
      const byToken = new Map<string, string[]>();
      for (const n of diff.numbers) byToken.set(n.ours, [...(byToken.get(n.ours) ?? []), n.path]);
      ourNumbers = [...byToken].map(([token, paths]) => ` At ${paths.join(', ')} our provider writes ${token}, which round-trips.`).join('');
    }
  }
  const identityNote = identity !== undefined && identity !== ours.identity ? ` Our identity: ${ours.identity}.` : '';
  return {
    id: f.id,
    status: 'defective',
    detail: `fixture defect, counted neither for nor against the provider: ${defectText(defects)}.${ourNumbers}${identityNote}`,
  };
}

function defectText(defects: FixtureDefect[]): string {
  return defects.map((d) => d.message).join('; ');
}

/** "canonical_json differs at offset N: expected …x…, ours …y…". */
function firstDifference(expected: string, ours: string): string {
  let i = 0;
  while (i < expected.length && i < ours.length && expected[i] === ours[i]) i++;
  const from = Math.max(0, i - 24);
  const cut = (s: string) => JSON.stringify(s.slice(from, i + 40));
  return `canonical_json differs at offset ${i}: expected …${cut(expected)}…, ours …${cut(ours)}…`;
}
