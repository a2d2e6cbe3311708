// Shared, format-neutral helpers for the reporters: grouping by part, value display, surface summary.
import { stringify } from 'lossless-json';
import type { HostSurface } from '../harness/contract.js';
import { POSTURES, type PostureName } from '../core/postures.js';
import { READINGS, type ReadingName } from '../core/readings.js';
import { describeLayout, effectiveLayout, LAYOUT_MEMBERS, layoutValue, REFERENCE_LAYOUT } from '../harness/layout.js';
import type { ConformanceReport, VectorResult } from '../results/model.js';

/** "--part a b (12 of 160 loaded vectors ran)" when filters narrowed the run, else undefined. */
export function selectionText(report: ConformanceReport): string | undefined {
  const sel = report.suite.selection;
  if (!sel) return undefined;
  const how = [
    sel.grep !== undefined ? `--grep ${sel.grep}` : '',
    sel.parts?.length ? `--part ${sel.parts.join(' ')}` : '',
    sel.exclude_grep !== undefined ? `--exclude-grep ${sel.exclude_grep}` : '',
    sel.exclude_parts?.length ? `--exclude-part ${sel.exclude_parts.join(' ')}` : '',
    sel.capabilities?.length ? `--capability ${sel.capabilities.join(' ')}` : '',
    sel.shard ? `--shard ${sel.shard.index}/${sel.shard.count} (of ${sel.shard.of} selected; merge the shards for the whole)` : '',
  ]
    .filter(Boolean)
    .join(' ');
  if (!how && sel.loaded <= report.results.length) return undefined;
  return `${how || 'filtered'} (${report.results.length} of ${sel.loaded} loaded vectors ran)`;
}

/** A part table's Failed cell: "3", "3 (2 expected)", "3 (2 expected), 1 stale". */
export function failedCell(failed: number, expected: number, stale: number): string {
  return `${failed}${expected > 0 ? ` (${expected} expected)` : ''}${stale > 0 ? `, ${stale} stale` : ''}`;
}

/** "agent-hooks/0.1" → "0.1" (the text after the last slash; the whole string when there is none). */
export function specVersion(spec: string): string {
  const i = spec.lastIndexOf('/');
  return i >= 0 ? spec.slice(i + 1) : spec;
}

/** One-line display of any observed/expected value: lossless numbers by their text, absent as "(absent)". */
export function formatValue(value: unknown, maxLength = 2000): string {
  if (value === undefined) return '(absent)';
  let text: string;
  try {
    text = stringify(value, null) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > maxLength ? text.slice(0, maxLength) + `… (${text.length - maxLength} more characters)` : text;
}

/** "id title" as one line: the name every format gives a vector. */
export function vectorName(r: VectorResult): string {
  return oneLine(r.title ? `${r.id} ${r.title}` : r.id);
}

export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

/** The declared surface as label/value pairs, in the order every report shows it (§13.1). */
export function surfaceSummary(surface: HostSurface): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  rows.push(['Capabilities', listOrNone([...(surface.capabilities ?? [])].sort())]);
  rows.push(['Buffered output (§12.1a)', surface.buffered_output === false ? 'false (declared)' : 'true']);
  if (surface.exposure_bound !== undefined) rows.push(['Exposure bound (§12.1a)', surface.exposure_bound]);
  rows.push(['Profiles and knobs (§7.2)', profilesText(surface)]);
  rows.push(['Identity providers (§10.1)', listOrNone((surface.identity_providers ?? []).map(providerText))]);
  rows.push(['Modes (§8)', listOrNone(surface.modes ?? [])]);
  rows.push(['Postures', postureText(surface)]);
  if (surface.readings !== undefined) rows.push(['Readings', readingText(surface)]);
  rows.push(['Conversation layout', describeLayout(effectiveLayout(surface.layout))]);
  if (surface.sdk) rows.push(['SDK', `${surface.sdk.lang}@${surface.sdk.version}`]);
  if (surface.bounds) {
    const b = surface.bounds;
    const parts = [];
    if (b.max_context_bytes !== undefined) parts.push(`max context ${b.max_context_bytes} bytes`);
    if (b.max_depth !== undefined) parts.push(`max depth ${b.max_depth}`);
    if (parts.length) rows.push(['Bounds (§12.3)', parts.join(', ')]);
  }
  return rows;
}

export function providerText(p: string | null): string {
  return p === null ? 'null' : p;
}

/** "sequential/first_deny (on_approval: stop, resume); parallel/strictest (on_transform_conflict: deny)" */
export function profilesText(surface: HostSurface): string {
  const entries = Object.entries(surface.profiles ?? {});
  if (entries.length === 0) return 'none';
  return entries
    .map(([profile, knobs]) => {
      const k = Object.entries(knobs ?? {}).map(([knob, values]) => `${knob}: ${(values ?? []).join(', ')}`);
      return k.length ? `${profile} (${k.join('; ')})` : profile;
    })
    .join('; ');
}

/** "tool_seam_host_error: continue (default), …": each declared posture, marked when it is the registry default (§13.1). */
export function postureText(surface: HostSurface): string {
  const entries = Object.entries(surface.postures ?? {});
  if (entries.length === 0) return 'defaults';
  return entries.map(([k, v]) => `${k}: ${v}${POSTURES[k as PostureName]?.default === v ? ' (default)' : ''}`).join(', ');
}

/** "errored_model_call: none": each declared contested reading (src/core/readings.ts), marked when it is the default. */
export function readingText(surface: HostSurface): string {
  const entries = Object.entries(surface.readings ?? {});
  if (entries.length === 0) return 'defaults';
  return entries.map(([k, v]) => `${k}: ${v}${READINGS[k as ReadingName]?.default === v ? ' (default)' : ''}`).join(', ');
}

/**
 * The choices that decide which vectors run besides the capabilities, in one line (the claim row's "Declared
 * choices"): the conversation layout (the members that differ from the reference loop's) and every posture's value,
 * a posture left out being its default, e.g. "layout: history=session (rest: reference loop's); postures:
 * tool_seam_host_error=continue, stop_approval_fold_truncated=when_skipped; readings: errored_model_call=post_model_call".
 */
export function declaredChoicesText(surface: HostSurface): string {
  const layout = effectiveLayout(surface.layout);
  const differing = LAYOUT_MEMBERS.filter((m) => layoutValue(layout, m) !== layoutValue(REFERENCE_LAYOUT, m)).map((m) => `${m}=${layoutValue(layout, m)}`);
  const layoutPart = differing.length === 0 ? "the reference loop's" : `${differing.join(', ')} (rest: reference loop's)`;
  const postures = (Object.keys(POSTURES) as PostureName[]).map((name) => `${name}=${surface.postures?.[name] ?? POSTURES[name].default}`);
  const readings = (Object.keys(READINGS) as ReadingName[]).map((name) => `${name}=${surface.readings?.[name] ?? READINGS[name].default}`);
  return `layout: ${layoutPart}; postures: ${postures.join(', ')}; readings: ${readings.join(', ')}`;
}

function listOrNone(items: readonly string[]): string {
  return items.length ? items.join(', ') : 'none';
}

/** Control characters (other than tab/LF/CR) shown as visible "\u{XXXX}" text instead of passing through raw. */
export function visibleControls(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, (c) => `\\u{${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}}`);
}
