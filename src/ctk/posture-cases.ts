// Posture-selected expectations (§13.1): a vector whose expected behaviour depends on a posture states one case
// per posture value (`expect.by_posture`), and the runner judges a host on the case of the value it declares, so
// every declared surface meets one expected outcome, never "either". The published `run_outcome_by_posture`
// (GRAMMAR.md §5.8) is read here as a by_posture whose cases carry run_outcome only: one mechanism for both. A
// contested reading (src/core/readings.ts) selects the same way (`expect.by_reading`): one selection per vector.
import { POSTURES, isPostureName } from '../core/postures.js';
import { READINGS, isReadingName } from '../core/readings.js';
import type { HostSurface } from '../harness/contract.js';
import { deepEqual } from '../core/json.js';
import type { Expect, PostureCase, PostureCaseMember, Vector } from './vector.js';

/**
 * Members the published grammar requires (or defaults) at the top level of `expect` that a case may state again:
 * the top level then states the registry default's case (GRAMMAR.md §5 requires `interceptions` and
 * `run_outcome` there; `sequence_strict` belongs to its `interceptions`), so a host that reads only the published
 * members is judged as the default host.
 */
export const RESTATED_MEMBERS = ['run_outcome', 'interceptions', 'sequence_strict'] as const satisfies ReadonlyArray<PostureCaseMember>;

/** Which expect member stated the selection (failures and load problems point at it). */
export type SelectionMember = 'by_posture' | 'run_outcome_by_posture' | 'by_reading';

/** What kind of declared choice selects: a §13.1 posture or one of the project's contested readings. */
export type ChoiceKind = 'posture' | 'reading';

/** A selection by a declared choice, whichever member stated it. */
export interface PostureSelection {
  member: SelectionMember;
  choice: ChoiceKind;
  /** The posture's or the reading's name. */
  name: string;
  cases: Record<string, PostureCase>;
}

/** The vector's selection, or undefined when its expectations do not depend on a declared choice. */
export function postureSelection(expect: Expect): PostureSelection | undefined {
  if (expect.by_posture !== undefined) return { member: 'by_posture', choice: 'posture', name: expect.by_posture.posture, cases: expect.by_posture.cases };
  if (expect.by_reading !== undefined) return { member: 'by_reading', choice: 'reading', name: expect.by_reading.reading, cases: expect.by_reading.cases };
  const alias = expect.run_outcome_by_posture;
  if (alias === undefined) return undefined;
  const cases: Record<string, PostureCase> = {};
  for (const [value, run_outcome] of Object.entries(alias.outcomes)) cases[value] = { run_outcome };
  return { member: 'run_outcome_by_posture', choice: 'posture', name: alias.posture, cases };
}

/**
 * The value of `posture` the host is judged under: the one it declares, else the registry default (HARNESS.md: "a
 * posture left out is its default"); undefined only for a posture the registry does not know.
 */
export function declaredPostureValue(surface: Pick<HostSurface, 'postures'>, posture: string): string | undefined {
  const declared = (surface.postures as Record<string, string | undefined> | undefined)?.[posture];
  if (declared !== undefined) return declared;
  return isPostureName(posture) ? POSTURES[posture].default : undefined;
}

/** The value of contested reading `reading` the host is judged under: the one it declares, else the registry default. */
export function declaredReadingValue(surface: Pick<HostSurface, 'readings'>, reading: string): string | undefined {
  const declared = (surface.readings as Record<string, string | undefined> | undefined)?.[reading];
  if (declared !== undefined) return declared;
  return isReadingName(reading) ? READINGS[reading].default : undefined;
}

/** The value of a declared choice of either kind. */
function declaredValue(surface: Pick<HostSurface, 'postures' | 'readings'>, choice: ChoiceKind, name: string): string | undefined {
  return choice === 'posture' ? declaredPostureValue(surface, name) : declaredReadingValue(surface, name);
}

export type CaseSelection =
  /** The expectations to check: the top-level members with the selected case's members in their place. */
  | { ok: true; expect: Expect; selected?: { member: SelectionMember; name: string; value: string; caseMembers: string[] } }
  /** The vector states no case for this host (only the published alias can get here: by_posture is checked at load). */
  | { ok: false; expect: Expect; member: SelectionMember; path: string; got?: string; message: string };

/** Resolves the vector's expectations for this host's declared postures and readings. */
export function selectPostureCase(expect: Expect, surface: Pick<HostSurface, 'postures' | 'readings'>): CaseSelection {
  const selection = postureSelection(expect);
  const { by_posture: _b, run_outcome_by_posture: _r, by_reading: _g, ...plain } = expect;
  if (selection === undefined) return { ok: true, expect: plain };
  const { member, choice, name, cases } = selection;
  const value = declaredValue(surface, choice, name);
  // GRAMMAR.md §5.8: an unknown posture, or a declared value without an entry, fails the vector.
  if (value === undefined) return { ok: false, expect: plain, member, path: `${choice}s`, message: `the vector selects its expectations by ${choice} "${name}", which is not a registered ${choice} (src/core/${choice}s.ts)` };
  const chosen = Object.prototype.hasOwnProperty.call(cases, value) ? cases[value] : undefined;
  if (chosen === undefined) return { ok: false, expect: plain, member, path: `${choice}s.${name}`, got: value, message: `the host declares ${name}=${value}, for which the vector states no case` };
  return { ok: true, expect: withCase(plain, chosen), selected: { member, name, value, caseMembers: Object.keys(chosen) } };
}

/**
 * The top-level expectations with a case's members in their place. A case's `interceptions` are read with the
 * case's own `sequence_strict` (absent: strict, the published default), never the top-level one: the top-level
 * flag belongs to the top-level list.
 */
function withCase(plain: Expect, chosen: PostureCase): Expect {
  const merged: Expect = { ...plain, ...chosen };
  if (chosen.interceptions !== undefined && chosen.sequence_strict === undefined) delete merged.sequence_strict;
  return merged;
}

/**
 * Load-time rules for `expect.by_posture` and `expect.by_reading` the schema cannot state (GRAMMAR.md §5.8, §12);
 * "<pointer>: <message>" or undefined. The schema has already limited each case to POSTURE_CASE_MEMBERS.
 */
export function byPostureProblem(vector: Pick<Vector, 'expect' | 'postures' | 'readings'>): string | undefined {
  const { expect } = vector;
  const selections = (['by_posture', 'by_reading', 'run_outcome_by_posture'] as const).filter((m) => expect[m] !== undefined);
  if (selections.length > 1) return `/expect/${selections[0]}: give ${selections[0]} or ${selections[1]}, not both (one selection per vector)`;
  const selection = postureSelection(expect);
  if (selection === undefined || selection.member === 'run_outcome_by_posture') return undefined;
  const { choice, name, cases } = selection;
  const ptr = `/expect/${selection.member}`;
  const registry: Record<string, { values: readonly string[]; default: string; clause: string }> = choice === 'posture' ? POSTURES : READINGS;
  const known = choice === 'posture' ? isPostureName(name) : isReadingName(name);
  if (!known) return `${ptr}/${choice}: unknown ${choice} ${JSON.stringify(name)} (known: ${Object.keys(registry).join(', ')})`;
  // A gate on the same choice would leave every other case unreachable.
  const gate = choice === 'posture' ? vector.postures : vector.readings;
  if (gate?.[name] !== undefined) return `${ptr}/${choice}: the vector is gated to ${name}=${gate[name]} (top-level ${choice}s); a gated vector asserts that value's expectations at the top level`;
  const spec = registry[name]!;
  const values: readonly string[] = spec.values;
  for (const key of Object.keys(cases))
    if (!values.includes(key)) return `${ptr}/cases/${key}: ${JSON.stringify(key)} is not a value of ${name} (one of ${values.join(', ')}; ${spec.clause})`;
  // Every value a host may declare is judged on a case of its own: none falls back to "whatever the top level says".
  for (const value of values) if (!Object.prototype.hasOwnProperty.call(cases, value)) return `${ptr}/cases: no case for ${name}=${value}; every value of the ${choice} needs one`;
  const restated: readonly string[] = RESTATED_MEMBERS;
  for (const [value, c] of Object.entries(cases)) {
    for (const member of Object.keys(c)) {
      if (restated.includes(member) || !Object.prototype.hasOwnProperty.call(expect, member)) continue;
      return `${ptr}/cases/${value}/${member}: also given at the top level of expect; a member is stated once, at the top level or in every case that needs it`;
    }
    // A case's sequence_strict qualifies the case's own interceptions list.
    if (c.sequence_strict !== undefined && c.interceptions === undefined)
      return `${ptr}/cases/${value}/sequence_strict: a case's sequence_strict qualifies its own interceptions, and this case states none`;
  }
  // Each value's interception sequence is its own: once one case states it, none borrows the top-level list.
  const withList = Object.keys(cases).filter((value) => cases[value]!.interceptions !== undefined);
  if (withList.length > 0) {
    const without = values.find((value) => cases[value]!.interceptions === undefined);
    if (without !== undefined)
      return `${ptr}/cases/${without}: states no interceptions while the case for ${withList[0]} does; once one case states the interception sequence, every case states its own`;
  }
  return defaultCaseProblem(expect, `${name}=${spec.default}`, cases[spec.default]!, `${ptr}/cases/${spec.default}`);
}

/**
 * The published grammar requires a top-level run_outcome and interceptions (GRAMMAR.md §5); they state the
 * registry default's case, so the default case restates them only to agree.
 */
function defaultCaseProblem(expect: Expect, defaultValue: string, c: PostureCase, ptr: string): string | undefined {
  const why = `(the top level of expect states the registry default's case, ${defaultValue})`;
  if (c.run_outcome !== undefined && c.run_outcome !== expect.run_outcome)
    return `${ptr}/run_outcome: "${c.run_outcome}" must equal expect.run_outcome "${expect.run_outcome}" ${why}`;
  if (c.interceptions === undefined) return undefined;
  if (!deepEqual(c.interceptions, expect.interceptions))
    return `${ptr}/interceptions: must equal expect.interceptions ${why}`;
  const strict = (flag: boolean | undefined) => flag !== false;
  if (strict(c.sequence_strict) !== strict(expect.sequence_strict))
    return `${ptr}/sequence_strict: ${strict(c.sequence_strict)} (absent means true) must equal expect.sequence_strict ${strict(expect.sequence_strict)} ${why}`;
  return undefined;
}
