// Checks a golden identity file against an identity provider (ours by default: the core's RFC 8785 and jcs-sha256).
// In the published format the two expectations are separate claims, checked each on its own: `canonical_json` is
// RFC 8785 of the whole `ctx` as given (optional and namespaced members included), `context_identity` is
// jcs-sha256 over the §10.2 projection. They coincide only when ctx carries no optional or namespaced member.
// Each fixture passes, fails (the provider disagrees with a sound expectation), or is reported defective (the
// fixture contradicts RFC 8785 / §10.2 by itself, defects.ts). A defective fixture is never a pass: the provider is
// still checked against what the fixture can soundly say (acceptance, round-tripping numbers, equality everywhere
// but the defective numbers, the identity when it is not the defective part) and fails if it does not hold.
import { canonicalize } from '../../core/canonical.js';
import { jcsSha256 } from '../../core/identity.js';
import { ContextInvalidError } from '../../core/errors.js';
import { brief } from '../json.js';
import type { GoldenFile, GoldenFixture } from './file.js';
import { canonicalDefects, canonicalDifferences, identityOfCanonical, parseCanonicalTokens, type FixtureDefect } from './defects.js';

export type GoldenStatus = 'pass' | 'fail' | 'defective';

export interface GoldenResult {
  id: string;
  status: GoldenStatus;
  /** One paragraph: what matched, what differed, or what is wrong with the fixture. */
  detail: string;
}

/** An identity provider under test; each function throws ContextInvalidError to reject. */
export interface GoldenProvider {
  /** RFC 8785 text of the whole value as given. */
  canonicalJson(ctx: unknown): string;
  /** §10.2 context_identity: the hash of the canonical text of the required+conditional projection. */
  contextIdentity(ctx: unknown): string;
}

/** The core's RFC 8785 (whole ctx) and §10.2 jcs-sha256 (projection, envelope validated first). */
export const CORE_GOLDEN_PROVIDER: GoldenProvider = { canonicalJson: (ctx) => canonicalize(ctx), contextIdentity: (ctx) => jcsSha256(ctx) };

type Outcome = { ok: true; value: string } | { ok: false; reason: string; remediation: string };

export function checkGolden(golden: GoldenFile, provider: GoldenProvider = CORE_GOLDEN_PROVIDER): GoldenResult[] {
  const identities = new Map<string, Outcome>();
  const results = golden.fixtures.map((f) => {
    const identity = attempt(() => provider.contextIdentity(f.ctx));
    identities.set(f.id, identity);
    return f.expect.kind === 'error' ? checkRejection(f, identity) : checkIdentity(f, identity, provider);
  });
  // Ours: identity-invariance pairs must share our identity too.
  golden.fixtures.forEach((f, i) => {
    const a = identities.get(f.id);
    const b = f.same_identity_as === undefined ? undefined : identities.get(f.same_identity_as);
    if (results[i]!.status === 'pass' && a?.ok && b?.ok && a.value !== b.value) {
      results[i] = { id: f.id, status: 'fail', detail: `our identity ${a.value} differs from that of ${f.same_identity_as} (${b.value}), which the fixture says it equals` };
    }
  });
  return results;
}

function attempt(compute: () => string): Outcome {
  try {
    return { ok: true, value: compute() };
  } catch (error) {
    if (error instanceof ContextInvalidError) return { ok: false, reason: error.reason, remediation: error.remediation };
    throw error;
  }
}

const REASON = /^[a-z_]+:[a-z_]+$/;

function checkRejection(f: GoldenFixture, ours: Outcome): GoldenResult {
  const expected = f.expect.kind === 'error' ? f.expect.error : undefined;
  const expectedText = typeof expected === 'string' ? expected : brief(expected, 80);
  if (ours.ok) return { id: f.id, status: 'fail', detail: `expected an error (${expectedText}), but our provider accepted the context: ${ours.value}` };
  if (typeof expected === 'string' && REASON.test(expected) && expected !== ours.reason) {
    return { id: f.id, status: 'fail', detail: `expected ${expected}, but our provider rejected with ${ours.reason}: ${ours.remediation}` };
  }
  if (f.remediation_contains !== undefined && !ours.remediation.includes(f.remediation_contains)) {
    return { id: f.id, status: 'fail', detail: `rejected, but the remediation does not mention ${JSON.stringify(f.remediation_contains)}: ${ours.remediation}` };
  }
  return { id: f.id, status: 'pass', detail: `rejected as expected: ${ours.reason}: ${ours.remediation}` };
}

function checkIdentity(f: GoldenFixture, ours: Outcome, provider: GoldenProvider): GoldenResult {
  if (f.expect.kind !== 'identity') throw new Error('checkIdentity needs an identity expectation');
  const { canonical_json: canonical, context_identity: identity } = f.expect;
  const failures: string[] = [];
  const defects: FixtureDefect[] = [];
  const notes: string[] = [];
  if (!ours.ok) failures.push(`expected identity ${identity ?? '(any)'}, but our provider rejected the context: ${ours.reason}: ${ours.remediation}`);

  // canonical_json: RFC 8785 of the whole ctx, judged on its own.
  let canonicalSound = true;
  if (canonical !== undefined) {
    const whole = attempt(() => provider.canonicalJson(f.ctx));
    const found = canonicalDefects(f.ctx, canonical, whole.ok ? { ok: true } : { ok: false, why: `${whole.reason}: ${whole.remediation}` });
    canonicalSound = found.length === 0;
    defects.push(...found);
    if (!whole.ok) {
      if (canonicalSound) failures.push(`our canonicalizer rejected the whole ctx: ${whole.reason}: ${whole.remediation}`);
    } else if (canonicalSound) {
      if (whole.value !== canonical) failures.push(firstDifference(canonical, whole.value));
    } else {
      const problem = defectiveCanonical(f.ctx, canonical, whole.value, found);
      if (problem.fail !== undefined) failures.push(problem.fail);
      else if (problem.note !== '') notes.push(problem.note);
    }
  }

  // context_identity: jcs-sha256 over the §10.2 projection, judged on its own.
  if (identity !== undefined && ours.ok) {
    const implied = canonical !== undefined ? identityOfCanonical(canonical) : undefined;
    if (canonicalSound && implied !== undefined && implied !== identity) {
      // The fixture contradicts itself: its identity is not the hash of its own canonical text's projection.
      defects.push({ message: `its context_identity ${identity} is not the SHA-256 of the §10.2 projection of its own canonical_json (${implied})` });
      if (ours.value !== implied) failures.push(`our identity ${ours.value} is not the SHA-256 of the §10.2 projection of the fixture's canonical_json (${implied}) either`);
      else notes.push(`Our identity: ${ours.value}.`);
    } else if (ours.value !== identity) {
      if (!canonicalSound && implied === identity) notes.push(`Its context_identity is hashed from those defective bytes; ours: ${ours.value}.`);
      else failures.push(`context_identity: expected ${identity}, ours ${ours.value}`);
    }
  }

  const defectNote = defects.length > 0 ? ` The fixture is defective too: ${defectText(defects)}.` : '';
  if (failures.length > 0) return { id: f.id, status: 'fail', detail: `${sentence(failures.join('; '))}${defectNote}` };
  if (defects.length > 0) {
    const extra = notes.map((n) => ` ${n}`).join('');
    return { id: f.id, status: 'defective', detail: `fixture defect, counted neither for nor against the provider: ${defectText(defects)}.${extra}` };
  }
  const what = canonical !== undefined && identity !== undefined ? 'canonical bytes and identity match' : canonical !== undefined ? 'canonical bytes match' : 'identity matches';
  return { id: f.id, status: 'pass', detail: what };
}

/** A defective canonical_json: ours must be sound itself and agree everywhere but at the fixture's defective numbers. */
function defectiveCanonical(ctx: unknown, canonical: string, ours: string, defects: FixtureDefect[]): { fail?: string; note: string } {
  const ownDefects = canonicalDefects(ctx, ours);
  if (ownDefects.length > 0) return { fail: `our provider's canonical_json is defective: ${defectText(ownDefects)}`, note: '' };
  const expectedTokens = parseCanonicalTokens(canonical);
  const oursTokens = parseCanonicalTokens(ours);
  if (!expectedTokens.ok || !oursTokens.ok) return { note: '' }; // not JSON text: nothing further it can soundly say
  const diff = canonicalDifferences(expectedTokens.value, oursTokens.value);
  const excused = new Set(defects.flatMap((d) => d.paths ?? []));
  if (diff.other.length > 0 || diff.numbers.some((n) => !excused.has(n.path))) {
    return { fail: `${firstDifference(canonical, ours)} (beyond the fixture's defect)`, note: '' };
  }
  const byToken = new Map<string, string[]>();
  for (const n of diff.numbers) byToken.set(n.ours, [...(byToken.get(n.ours) ?? []), n.path]);
  return { note: [...byToken].map(([token, paths]) => `At ${paths.join(', ')} our provider writes ${token}, which round-trips.`).join(' ') };
}

const sentence = (text: string): string => (text.endsWith('.') ? text : `${text}.`);

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
