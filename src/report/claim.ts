// §13.3 conformance claims: the tuple (<framework>, <adapter-version>, agent-hooks/<spec-version>,
// <capabilities>, <profiles>, <identity-provider>, <sdk-lang>@<sdk-version>) plus the report, as one
// CLAIMS.md table row and a per-part claim report (CLAIM.md) carrying every disclosure §10.1, §12.1a and §13.3 require.
// A claim is refused unless 100% of the applicable vectors passed (§13.2) and every skip is the host
// not declaring something (§13.1).
import { POSTURES, type PostureSpec } from '../core/postures.js';
import { READINGS } from '../core/readings.js';
import { nonDefaultPostures, nonDefaultReadings } from '../harness/declared-choices.js';
import type { HostSurface } from '../harness/contract.js';
import type { ConformanceReport, VectorResult } from '../results/model.js';
import { suiteDigest } from '../results/digest.js';
import { declaredChoicesText, postureText, readingText, profilesText, providerText, selectionText, specVersion } from './format.js';
import { describeLayout, effectiveLayout } from '../harness/layout.js';
import { groupByPart, isExpectedFailure, isStale, partName, skipGateCounts, skipGateOf, skippedText, tally } from '../results/tally.js';
import { mdCode, mdText, renderPartTable } from './markdown.js';
import { CTK_FAULT_PROVIDER } from '../harness/scripted.js';

export { UNDECLARED_SKIP_PREFIX } from '../results/tally.js';


/**
 * Optional surface member a host may set for the §10.1 disclosure: whether each host-defined identity
 * provider is content-derived. Not part of HostSurface yet; read duck-typed.
 */
export interface ProviderDisclosureSurface {
  identity_provider_content_derived?: Record<string, boolean>;
}

export const CLAIM_COLUMNS = [
  'Framework',
  'Adapter version',
  'Spec',
  'Capabilities',
  'Profiles',
  'Identity provider',
  'SDK',
  'Declared choices',
  'Result',
  'Disclosures',
  'CTK and suite digest',
  'Date',
  'Report',
] as const;

/** The CLAIMS.md table header (two lines), matching the cells of Claim.row. */
export function claimTableHeader(): string {
  return `| ${CLAIM_COLUMNS.join(' | ')} |\n|${CLAIM_COLUMNS.map(() => ' --- ').join('|')}|`;
}

/** Cells of a Markdown table row, split on unescaped pipes. */
export function rowCells(row: string): string[] {
  const inner = row.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((c) => c.trim());
}

/**
 * Puts `row` into the claims table of a CLAIMS.md text: replaces the row with the same framework and
 * adapter version, or appends it. Throws when the text has no table with the claimTableHeader() header.
 */
export function upsertClaimRow(claimsText: string, row: string): string {
  const lines = claimsText.split('\n');
  const header = claimTableHeader().split('\n')[0]!;
  const at = lines.indexOf(header);
  if (at < 0) throw new Error(`no claims table with the header "${header}"`);
  const key = rowCells(row).slice(0, 2).join('|');
  let end = at + 2;
  while (end < lines.length && lines[end]!.startsWith('|')) end++;
  for (let i = at + 2; i < end; i++) {
    if (rowCells(lines[i]!).slice(0, 2).join('|') === key) {
      lines[i] = row;
      return lines.join('\n');
    }
  }
  lines.splice(end, 0, row);
  return lines.join('\n');
}

export interface ClaimTuple {
  framework: string;
  adapter_version: string;
  spec: string;
  capabilities: string[];
  profiles: string;
  identity_providers: string[];
  sdk: string;
}

export interface Disclosure {
  /** Short form for the CLAIMS.md row. */
  short: string;
  /** Full sentence for the claim report (CLAIM.md). */
  text: string;
}

export interface Claim {
  tuple: ClaimTuple;
  disclosures: Disclosure[];
  /** One CLAIMS.md table row, paste-ready. */
  row: string;
  /** The per-part claim report (CLAIM.md). */
  reportMarkdown: string;
}

export class ClaimRefused extends Error {
  constructor(readonly reasons: string[]) {
    super(`no claim can be made from this report:\n${reasons.map((r) => `  - ${r}`).join('\n')}`);
    this.name = 'ClaimRefused';
  }
}

/** A skip by the declared surface (§13.1): its skip_kind, or in a report without one, a reason naming a gate (skipGateOf). */
export function isUndeclaredSkip(r: VectorResult): boolean {
  if (r.skip_kind !== undefined) return r.skip_kind === 'undeclared';
  return r.status === 'skip' && skipGateOf(r) !== undefined;
}

/** Why no claim may be made from the report; empty when a claim may be made. */
export function claimRefusals(report: ConformanceReport): string[] {
  const reasons: string[] = [];
  const t = tally(report.results);
  const failed = report.results.filter((r) => r.status === 'fail');
  if (failed.length > 0) {
    reasons.push(
      `${failed.length} vector${failed.length === 1 ? '' : 's'} failed; a claim needs 100% of the applicable vectors to pass (§13.2):` +
        failed.map((r) => `\n      ${r.id}${isExpectedFailure(r) ? ' [expected failure]' : ''}${r.reason ? ` (${r.reason})` : ''}`).join(''),
    );
  }
  if (t.expected > 0) {
    reasons.push(
      `${t.expected} of the failures ${t.expected === 1 ? 'is an expected failure' : 'are expected failures'} of the run's baseline` +
        `${report.baseline ? ` (${report.baseline.file})` : ''}: a baseline keeps a CI build green while failures are burned down, it does not make a claim; a claim is 100%`,
    );
  }
  if (t.stale > 0) {
    reasons.push(`the run failed its expected-failures baseline: ${t.stale} stale entr${t.stale === 1 ? 'y' : 'ies'} (${report.results.filter(isStale).map((r) => r.id).join(', ')}); drop them and run again`);
  }
  const badSkips = report.results.filter((r) => r.status === 'skip' && !isUndeclaredSkip(r));
  if (badSkips.length > 0) {
    reasons.push(
      `${badSkips.length} vector${badSkips.length === 1 ? ' was' : 's were'} skipped for a reason other than the host not declaring a capability, profile, knob value, identity provider, mode or posture (§13.1):` +
        badSkips.map((r) => `\n      ${r.id} (${r.reason ?? 'no reason given'})`).join(''),
    );
  }
  const selection = selectionText(report);
  if (selection) reasons.push(`the run was narrowed: ${selection}; a claim covers the whole suite`);
  if (t.applicable === 0) reasons.push('nothing ran: no vector applies to the declared surface, so there is nothing to claim');
  const s = report.summary;
  const baselineCounts = s.expected_failures !== undefined || s.stale !== undefined;
  if (s.total !== t.total || s.passed !== t.passed || s.failed !== t.failed || s.skipped !== t.skipped || (baselineCounts && (s.expected_failures !== t.expected || s.stale !== t.stale))) {
    reasons.push(
      `the report's summary (${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped of ${s.total}) does not match its results ` +
        `(${t.passed}, ${t.failed}, ${t.skipped} of ${t.total}); regenerate the report`,
    );
  }
  const recomputed = suiteDigest(report.results);
  if (recomputed !== report.suite.digest) {
    reasons.push(`the report's suite digest ${report.suite.digest} is not the digest of its own vector digests (${recomputed}); regenerate the report`);
  }
  if (!report.spec.startsWith('agent-hooks/')) reasons.push(`the report's spec "${report.spec}" is not an agent-hooks/<version> identifier`);
  return reasons;
}

/** The §13.3 tuple as declared in the report. */
export function claimTuple(report: ConformanceReport): ClaimTuple {
  const surface = report.host.surface;
  const caps = [...new Set(surface.capabilities ?? [])].filter((c) => c !== 'buffered_output').sort();
  // §12.1a: buffered_output defaults to true; false is stated explicitly.
  caps.push(surface.buffered_output === false ? 'buffered_output=false' : 'buffered_output');
  return {
    framework: report.host.name,
    adapter_version: report.host.version,
    spec: report.spec,
    capabilities: caps,
    profiles: profilesText(surface),
    identity_providers: (surface.identity_providers ?? []).map(providerText),
    sdk: surface.sdk ? `${surface.sdk.lang}@${surface.sdk.version}` : 'undeclared',
  };
}

/** Every disclosure the declared surface calls for, in a fixed order. */
export function claimDisclosures(surface: HostSurface): Disclosure[] {
  const out: Disclosure[] = [];
  const providers = surface.identity_providers ?? [];
  // §10.1, §13.3: a null provider MUST be stated.
  if (providers.includes(null)) {
    out.push({
      short: 'identity provider null: approvals and records are identity-unbound',
      text:
        'Identity provider `null` is declared: with it, approvals and records are identity-unbound (§10.1, §13.3). ' +
        'An approval then binds only by request/response correlation, not by content, and records carry null identities.',
    });
  }
  // §12.1a, §13.3: buffered_output false MUST be stated.
  if (surface.buffered_output === false) {
    out.push({
      short: 'buffered_output=false: a deny at output cannot retract already-streamed content',
      text:
        '`buffered_output: false` is declared: a deny at output cannot retract already-streamed content (§12.1a, §13.3). ' +
        'The CTK drives hosts with mocked I/O and cannot exercise streaming egress; this is declaration-only.',
    });
    out.push(...incrementalDisclosures(surface));
  }
  // §10.1: a claim MUST disclose whether the declared provider is content-derived.
  const derived = (surface as HostSurface & ProviderDisclosureSurface).identity_provider_content_derived ?? {};
  for (const p of providers) {
    if (p === null) continue;
    if (p === 'jcs-sha256') {
      out.push({
        short: 'jcs-sha256 is content-derived',
        text: 'Identity provider `jcs-sha256` is content-derived: an unsalted SHA-256 over the canonical required+conditional projection (§10.2, §14).',
      });
    } else if (p === CTK_FAULT_PROVIDER) {
      out.push({
        short: `${p}: CTK fault-injection provider only`,
        text:
          `\`${p}\` is the CTK's fault-injection provider (its compute throws on every call). Declaring it shows the host accepts a ` +
          'host-defined provider and fails the emission closed when it fails (§10.1); it is not an identity anyone deploys.',
      });
    } else if (derived[p] === true) {
      out.push({ short: `${p} is content-derived`, text: `Host-defined identity provider \`${p}\` is content-derived (§10.1).` });
    } else if (derived[p] === false) {
      out.push({
        short: `${p} is not content-derived`,
        text: `Host-defined identity provider \`${p}\` is not content-derived (§10.1): its identities do not bind approvals or records to content.`,
      });
    } else {
      out.push({
        short: `${p}: content derivation not declared`,
        text:
          `Host-defined identity provider \`${p}\`: the host did not declare whether it is content-derived, which §10.1 requires a claim to disclose. ` +
          'Set `identity_provider_content_derived` in the declared surface and regenerate.',
      });
    }
  }
  // §13.3: a non-default posture is disclosed (every registered posture, src/core/postures.ts), not papered over.
  for (const { name, value } of nonDefaultPostures(surface.postures)) {
    const spec: PostureSpec = POSTURES[name];
    out.push({
      short: `posture ${name}=${value}`,
      text: `Non-default posture \`${name}: ${value}\` (${spec.clause}): ${spec.disclosure[value] ?? spec.reading}`,
    });
  }
  // A contested reading other than the default is named (src/core/readings.ts; READINGS.md), like a posture.
  for (const { name, value } of nonDefaultReadings(surface.readings)) {
    const spec: PostureSpec = READINGS[name];
    out.push({
      short: `reading ${name}=${value}`,
      text: `Contested reading \`${name}: ${value}\` (${spec.clause}; READINGS.md, a declared choice of this kit): ${spec.disclosure[value] ?? spec.reading}`,
    });
  }
  // §14: evaluate_only MUST NOT be presented as enforcement.
  if ((surface.modes ?? []).includes('evaluate_only')) {
    out.push({
      short: 'evaluate_only supported (not enforcement)',
      text: '`evaluate_only` mode is declared: in it verdicts are recorded but not enforced, and it MUST NOT be presented as enforcement (§8, §14).',
    });
  }
  // §3.2: omitted capabilities are part of the claim.
  const caps = new Set(surface.capabilities ?? []);
  if (!caps.has('model_calls')) {
    out.push({ short: 'no model calls (§3.2)', text: 'The host performs no model calls: pre_model_call and post_model_call are not emitted (§3.2).' });
  }
  if (!caps.has('tool_calls')) {
    out.push({ short: 'no tool calls (§3.2)', text: 'The host invokes no tools: pre_tool_call and post_tool_call are not emitted (§3.2).' });
  }
  if (!surface.sdk) {
    out.push({ short: 'SDK undeclared', text: 'The surface declares no SDK language and version (`sdk`), so the tuple cannot name them.' });
  }
  return out;
}

/**
 * §12.1a, §13.3: with buffered_output false, whether the host mediates incrementally under the §12.1 exception
 * (incremental_output, so the streaming/incremental vectors ran against its discipline) and the exposure bound it
 * states: which content can reach the caller ahead of the verdict covering it.
 */
function incrementalDisclosures(surface: HostSurface): Disclosure[] {
  const out: Disclosure[] = [];
  const bound = surface.exposure_bound;
  if ((surface.capabilities ?? []).includes('incremental_output')) {
    out.push({
      short: 'incremental_output: streamed responses mediated incrementally (§12.1 exception)',
      text:
        '`incremental_output` is declared: streamed model responses are evaluated incrementally under the §12.1 exception ' +
        '(one post_model_call per segment), so the streaming/incremental vectors ran against this accounting discipline (§13.3).',
    });
  } else {
    out.push({
      short: 'no incremental_output: streamed responses are not mediated incrementally',
      text: '`incremental_output` is not declared: the host does not mediate streamed responses incrementally under the §12.1 exception, and the streaming/incremental vectors did not run.',
    });
  }
  if (bound !== undefined) out.push({ short: `exposure bound: ${bound}`, text: `Exposure bound (§12.1a): ${bound}.` });
  return out;
}

/** "270/270 passed, 56 skipped (40 not declared, 11 layout-gated, 5 posture-gated)" */
export function resultText(report: ConformanceReport): string {
  const t = tally(report.results);
  const skipped = skippedText(report.results);
  return `${t.passed}/${t.applicable} passed${skipped ? `, ${skipped}` : ''}`;
}

function cell(text: string): string {
  return mdText(text);
}

/** Builds the claim, or throws ClaimRefused with every reason. `reportLink` is the claim report's path the row links to. */
export function buildClaim(report: ConformanceReport, reportLink: string): Claim {
  const refusals = claimRefusals(report);
  if (refusals.length > 0) throw new ClaimRefused(refusals);
  const tuple = claimTuple(report);
  const disclosures = claimDisclosures(report.host.surface);
  const row = claimsTableRow(report, resultText(report), linkCell(reportLink));
  return { tuple, disclosures, row, reportMarkdown: renderClaimReport(report, tuple, disclosures) };
}

/**
 * A CLAIMS.md row for a run that cannot be claimed (§13.2 asks for every applicable vector): the same tuple and
 * disclosures a claim row has, the Result cell saying there is no claim and why, the last cell linking the run's own
 * report. For hosts whose known defects are recorded beside the claims (a framework the CTK runs but cannot certify).
 */
export function noClaimRow(report: ConformanceReport, reportLink: string): string {
  const t = tally(report.results);
  const skipped = skippedText(report.results);
  const result = `no claim: ${t.passed}/${t.applicable} passed, ${t.failed} failed${skipped ? `, ${skipped}` : ''}; §13.2 asks for every applicable vector`;
  return claimsTableRow(report, result, linkCell(reportLink));
}

/** The Report cell: a link named by the file it points to. */
function linkCell(reportLink: string): string {
  const name = reportLink.split(/[\\/]/).pop() ?? reportLink;
  return `[${mdText(name)}](${encodeURI(reportLink.split('\\').join('/'))})`;
}

function claimsTableRow(report: ConformanceReport, result: string, reportCell: string): string {
  const tuple = claimTuple(report);
  const disclosures = claimDisclosures(report.host.surface);
  const date = (report.environment?.finished_at ?? report.environment?.started_at ?? '').slice(0, 10) || 'unknown';
  const cells = [
    cell(tuple.framework),
    cell(tuple.adapter_version),
    cell(tuple.spec),
    cell(tuple.capabilities.join(', ')),
    cell(tuple.profiles),
    cell(tuple.identity_providers.join(', ') || 'none'),
    cell(tuple.sdk),
    cell(declaredChoicesText(report.host.surface)),
    cell(result),
    cell(disclosures.map((d) => d.short).join('; ') || 'none'),
    `${cell(`${report.ctk.name} ${report.ctk.version}`)}, ${mdCode(report.suite.digest)}`,
    cell(date),
    reportCell,
  ];
  return `| ${cells.join(' | ')} |`;
}

function renderClaimReport(report: ConformanceReport, tuple: ClaimTuple, disclosures: Disclosure[]): string {
  const out: string[] = [];
  out.push(`# Conformance claim: ${mdText(tuple.framework)} ${mdText(tuple.adapter_version)}`, '');
  const t = tally(report.results);
  out.push(
    `${mdText(tuple.framework)} ${mdText(tuple.adapter_version)} passes all ${t.applicable} Agent Hooks CTK vectors applicable to its ` +
      `declared surface (${mdText(tuple.spec)}, §13.1–§13.3)` +
      (t.skipped ? `; ${skipSentence(report)}` : '.'),
    '',
  );
  out.push('## Claim tuple (§13.3)', '', '| Member | Value |', '| --- | --- |');
  out.push(`| Framework | ${mdText(tuple.framework)} |`);
  out.push(`| Adapter version | ${mdText(tuple.adapter_version)} |`);
  out.push(`| Spec | ${mdText(tuple.spec)} |`);
  out.push(`| Capabilities | ${mdText(tuple.capabilities.join(', '))} |`);
  out.push(`| Profiles | ${mdText(tuple.profiles)} |`);
  out.push(`| Identity provider | ${mdText(tuple.identity_providers.join(', ') || 'none')} |`);
  out.push(`| SDK | ${mdText(tuple.sdk)} |`);
  out.push(`| Modes | ${mdText((report.host.surface.modes ?? []).join(', ') || 'none')} |`);
  out.push(`| Postures | ${mdText(postureText(report.host.surface))} |`);
  out.push(`| Readings | ${mdText(readingText(report.host.surface))} |`);
  out.push(`| Conversation layout | ${mdText(describeLayout(effectiveLayout(report.host.surface.layout)))} |`, '');
  out.push('## Disclosures', '');
  if (disclosures.length === 0) out.push('- None beyond the tuple.');
  for (const d of disclosures) out.push(`- ${d.text}`);
  out.push(
    '- Conformance attests that the host honours the verdict contract under CTK conditions, with a mocked model and tools. ' +
      'It is not adversarial testing and not a security certification (§1.4).',
    '',
  );
  const notDeclared = Object.entries(report.host.surface.not_declared ?? {});
  if (notDeclared.length > 0) {
    out.push('## Not declared, and why', '', 'Vectors needing these are skipped, each with its reason below; the host states why it cannot support them.', '');
    out.push('| Not declared | Why |', '| --- | --- |', ...notDeclared.map(([what, why]) => `| ${mdText(what)} | ${mdText(why)} |`), '');
  }
  out.push(...renderPartTable(report, '## Results by declared part (§13.1)'), '');
  for (const g of groupByPart(report)) {
    out.push(`### ${mdText(g.part)}`, '', '| Vector | Title | Clause | Result |', '| --- | --- | --- | --- |');
    for (const r of g.results) {
      const result = r.status === 'pass' ? 'passed' : r.status === 'fail' ? 'FAILED' : `skipped: ${r.reason ?? ''}`;
      out.push(`| ${mdText(r.id)} | ${mdText(r.title)} | §${mdText(r.spec_clause)} | ${mdText(result)} |`);
    }
    out.push('');
  }
  const env = report.environment;
  out.push('## Reproduce and verify', '');
  out.push(`- CTK: ${mdText(report.ctk.name)} ${mdText(report.ctk.version)}; spec ${mdText(report.spec)} (version ${mdText(specVersion(report.spec))})`);
  out.push(`- Suite digest: ${mdCode(report.suite.digest)} over ${report.suite.vectors} vectors${report.suite.sources?.length ? ` from ${report.suite.sources.map(mdCode).join(', ')}` : ''}`);
  if (env) out.push(`- Run: ${mdText(env.started_at)} to ${mdText(env.finished_at)}, Node ${mdText(env.node)} on ${mdText(env.platform)}/${mdText(env.arch)}, harness ${mdText(env.harness)}`);
  out.push(
    '- Check that a vector directory still holds exactly these vectors: `agent-hooks-ctk verify-report report.json --vectors DIR` (exit 0 only on a byte-for-byte canonical match).',
    '- Re-run the same CTK version against the same host and surface, and compare: `agent-hooks-ctk run --reporter json --out DIR`, then ' +
      '`agent-hooks-ctk verify-report report.json --vectors VECTORS --compare DIR/report.json` (exit 0 only when every vector has the same result).',
    '',
  );
  const perVector = report.results.map((r) => `| ${mdText(r.id)} | ${mdText(partName(r.part))} | ${mdCode(r.digest)} |`);
  out.push('<details><summary>Vector digests</summary>', '', '| Vector | Part | Digest |', '| --- | --- | --- |', ...perVector, '', '</details>', '');
  return out.join('\n');
}

/** "56 more do not apply to it: 40 need what the host does not declare, 11 another conversation layout, 5 another posture value." */
function skipSentence(report: ConformanceReport): string {
  const c = skipGateCounts(report.results);
  const parts = [
    c.not_declared > 0 ? `${c.not_declared} need what the host does not declare` : '',
    c.layout > 0 ? `${c.layout} depend on a conversation layout other than the declared one` : '',
    c.posture > 0 ? `${c.posture} apply to a posture value other than the declared one` : '',
  ].filter(Boolean);
  const total = c.not_declared + c.layout + c.posture + c.other;
  return `${total} more do not apply to it: ${parts.join(', ')}.`;
}
