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
