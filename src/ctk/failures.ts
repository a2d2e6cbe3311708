// A failure repeated across records (the same invariant on 9 records, say) is reported once, with its count and
// the places it occurred, instead of 9 near-identical lines. Only the location differs between such repeats.
import type { Failure } from '../results/model.js';

/** Record/position indexes, sequences and a parenthesized point name: what differs between repeats of one failure. */
const LOCATIONS: ReadonlyArray<[RegExp, string]> = [
  [/\b(records?|recording|identities|outputs|model_calls)\[\d+\]/g, '$1[#]'],
  [/\b(record|position|emission|pair) \d+( \([a-z_]+\))?/g, '$1 #'],
  [/\bthe [a-z_]+ context \(sequence [^)]*\)/g, 'a context'],
  [/\(sequence [^)]*\)/g, '(sequence #)'],
];

function shape(f: Failure): string {
  let message = f.message;
  for (const [re, to] of LOCATIONS) message = message.replace(re, to);
  return JSON.stringify([f.clause, f.check, message]);
}

/** Folds failures that differ only by location into the first of them, which gains `repeated`. Order is kept. */
export function foldRepeatedFailures(failures: readonly Failure[]): Failure[] {
  const out: Failure[] = [];
  const first = new Map<string, Failure>();
  for (const f of failures) {
    const key = shape(f);
    const seen = first.get(key);
    if (seen === undefined) {
      const copy = { ...f };
      first.set(key, copy);
      out.push(copy);
      continue;
    }
    const repeated = seen.repeated ?? { count: 1, paths: seen.path !== undefined ? [seen.path] : [] };
    repeated.count++;
    if (f.path !== undefined) repeated.paths.push(f.path);
    seen.repeated = repeated;
  }
  return out;
}

/** " — the same failure 9 times: records[0], records[1], …" for every renderer; "" when the failure occurred once. */
export function repeatNote(f: Failure, shown = 8): string {
  if (f.repeated === undefined || f.repeated.count < 2) return '';
  const { count, paths } = f.repeated;
  const where = paths.length === 0 ? '' : `: ${paths.slice(0, shown).join(', ')}${paths.length > shown ? `, … (${paths.length - shown} more)` : ''}`;
  return ` — the same failure ${count} times${where}`;
}

// ------------------------------------------------------------------------------------------ requirement citations

/**
 * Which catalogue requirement an invariant or stream check enforces (vectors/requirements.yaml ids): by the check, and
 * where one check covers several requirements, by what its message says.
 */
const BY_CHECK: ReadonlyArray<[check: string, message: RegExp | null, requirement: string]> = [
  ['invariant.ordering', /^agent_startup was denied/, 'REQ-6.1a-startup-deny-no-input'],
  ['invariant.ordering', /^agent_startup must/, 'REQ-3.1-startup-first'],
  ['invariant.ordering', /^agent_shutdown must|no interception records/, 'REQ-3.1-shutdown-last'],
  ['invariant.ordering', /outside the closed §3 set/, 'REQ-4.1-point-value'],
  ['invariant.ordering', /does not result from any earlier input/, 'REQ-3.1-input-precedes'],
  ['invariant.ordering', /_model_call/, 'REQ-3.1-model-paired'],
  ['invariant.ordering', /_tool_call/, 'REQ-3.1-tool-paired'],
  ['invariant.sequence', /appears twice/, 'REQ-12.2-parallel-sequence'],
  ['invariant.sequence', /strictly increasing/, 'REQ-3.1-sequence-increasing'],
  ['invariant.sequence', null, 'REQ-4.1-sequence-zero'],
  ['invariant.session', null, 'REQ-4.1-session-id-stable'],
  ['invariant.records', null, 'REQ-10.3-one-record'],
  ['invariant.identities', null, 'REQ-10.3-identities'],
  ['invariant.context_schema', null, 'REQ-1.1-construct-context'],
  ['invariant.composition', null, 'REQ-10.3-composition-knobs'],
  ['invariant.mode', null, 'REQ-8-eval-not-enforcement'],
  ['invariant.identity_provider', null, 'REQ-10.1-null-provider-stated'],
  ['invariant.fold_truncated', null, 'REQ-10.3-fold-truncated'],
  ['invariant.payload_free', null, 'REQ-10.3-payload-free'],
  ['invariant.crosscheck.model_calls', null, 'REQ-3.1-model-paired'],
  ['invariant.crosscheck.model_messages', /allow: unchanged/, 'REQ-6-allow-unchanged'],
  ['invariant.crosscheck.model_messages', null, 'REQ-4.3-target-observable'],
  ['invariant.crosscheck.model_response', null, 'REQ-4.2-conditional-fields'],
  ['invariant.crosscheck.tool_calls', null, 'REQ-3.1-tool-paired'],
  ['invariant.crosscheck.tool_args', /allow: unchanged/, 'REQ-6-allow-unchanged'],
  ['invariant.crosscheck.tool_args', null, 'REQ-4.2-post-args-reflect'],
  ['invariant.crosscheck.tool_result', null, 'REQ-4.2-target-alias'],
  ['invariant.crosscheck.release', /was denied/, 'REQ-6-output-withheld'],
  ['invariant.crosscheck.release', null, 'REQ-12.1a-verdicted-content'],
  ['invariant.crosscheck.blocked', null, 'REQ-6-pre-not-dispatched'],
  ['stream.terminated', null, 'REQ-12.1-incremental-deny-terminates'],
  ['stream.consumption', null, 'REQ-12.1-incremental-deny-terminates'],
];

/** The invariant/stream-check table's requirement ids, for the test that keeps it in step with the catalogue. */
export const CHECK_REQUIREMENTS: readonly string[] = [...new Set(BY_CHECK.map(([, , id]) => id))];

export interface Citation {
  id: string;
  clause: string;
  text: string;
}

/**
 * The requirements a failure is a finding against, so a person can take it upstream: the one the failed invariant
 * enforces, or (for an expectation) those of the catalogue that this vector pins, narrowed to the failure's clauses
 * when some match. Empty when the catalogue has nothing to say (a harness failure, a vector outside the catalogue).
 */
export function citationsFor(f: Failure, vectorId: string, catalogue: ReadonlyMap<string, Citation & { vectors: readonly string[] }>): Citation[] {
  const cite = (id: string): Citation[] => {
    const r = catalogue.get(id);
    return r ? [{ id: r.id, clause: r.clause, text: r.text }] : [];
  };
  const byCheck = BY_CHECK.find(([check, message]) => check === f.check && (message === null || message.test(f.message)));
  if (byCheck) return cite(byCheck[2]);
  if (!f.check.startsWith('expect.')) return [];
  const all = [...catalogue.values()];
  const pinned = all.filter((r) => r.vectors.includes(vectorId));
  const clauses = new Set(f.clause.split(/\s*,\s*/));
  if (pinned.length === 0) {
    // A vector the catalogue does not pin (the published corpus): the requirements whose id names most of what failed
    // (of its clauses first, when a tie), at most three; none when nothing does.
    const scored = all.map((r) => ({ r, score: overlap(f, r) }));
    const best = Math.max(0, ...scored.map((x) => x.score));
    // One shared word is a guess (model, tool …); two name the member (fold + truncated).
    const top = best < 2 ? [] : scored.filter((x) => x.score === best).map((x) => x.r);
    const ofClause = top.filter((r) => clauses.has(r.clause));
    const found = ofClause.length > 0 ? ofClause : top;
    return found.length <= 3 ? found.map((r) => ({ id: r.id, clause: r.clause, text: r.text })) : [];
  }
  const inClause = pinned.filter((r) => clauses.has(r.clause));
  const narrowed = byWords(f, inClause.length > 0 ? inClause : pinned);
  return narrowed.map((r) => ({ id: r.id, clause: r.clause, text: r.text }));
}

/** Words of a failure's path and member that say little about which requirement it concerns. */
const PLAIN = new Set(['expect', 'context', 'records', 'record', 'assert', 'absent', 'present', 'interceptions', 'interception', 'point', 'verdict', 'not', 'must', 'contain', 'the', 'of', 'at', 'a', 'run', 'outcome', 'count', 'calls']);
const words = (s: string): string[] => s.toLowerCase().split(/[^a-z]+/).filter((w) => w.length > 1 && !PLAIN.has(w));

const overlap = (f: Failure, r: { id: string }): number => {
  const mine = new Set(words(`${f.check} ${f.path ?? ''}`));
  return words(r.id.replace(/^REQ-[0-9.a]+-/, '')).filter((w) => mine.has(w)).length;
};

/** Of several requirements, the ones whose id shares most words with the failure's member and path (all when none does). */
function byWords<T extends { id: string }>(f: Failure, candidates: T[]): T[] {
  if (candidates.length < 2) return candidates;
  const scored = candidates.map((r) => ({ r, score: overlap(f, r) }));
  const best = Math.max(...scored.map((x) => x.score));
  return best === 0 ? candidates : scored.filter((x) => x.score === best).map((x) => x.r);
}

/** " [REQ-… §x: statement]" as the failure's message ends (the catalogue's own words; several joined by " | "). */
export function citationText(citations: readonly Citation[], shown = 3): string {
  if (citations.length === 0) return '';
  const more = citations.length > shown ? ` | and ${citations.length - shown} more` : '';
  return ` [${citations.slice(0, shown).map((c) => `${c.id} §${c.clause}: ${c.text}`).join(' | ')}${more}]`;
}

/** Each failure's message gains the requirement it is a finding against (citationsFor), once. */
export function citeRequirements(failures: readonly Failure[], vectorId: string, catalogue: ReadonlyMap<string, Citation & { vectors: readonly string[] }>): Failure[] {
  return failures.map((f) => {
    const suffix = citationText(citationsFor(f, vectorId, catalogue));
    return suffix === '' || f.message.endsWith(suffix) ? f : { ...f, message: `${f.message}${suffix}` };
  });
}
