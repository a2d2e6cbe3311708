import t from 'tap';
import { mkdtemp, readFile, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { PACKAGE_ROOT } from '../version.js';
import { buildClaim, claimDisclosures, claimRefusals, claimTableHeader, ClaimRefused, CLAIM_COLUMNS, rowCells, upsertClaimRow } from './claim.js';
import { buildReport, fail, failure, mixedReport, pass, skip, surface } from './report-fixture.test.util.js';
import { writeReports } from './write.js';
import { suiteDigest } from '../results/digest.js';

const BIN = path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js');

const cells = rowCells;

function passingReport() {
  return buildReport([
    pass('AH-CTK-001', 'core'),
    pass('AH-CTK-002', 'approval_seam'),
    skip('AH-CTK-003', 'composition/parallel_unanimous', 'host does not declare profile parallel/unanimous'),
  ]);
}

t.test('a passing report makes a claim: row with every tuple column, per-part CLAIM.md', async (t) => {
  const claim = buildClaim(passingReport(), 'reports/CLAIM.md');
  const c = cells(claim.row);
  t.equal(c.length, CLAIM_COLUMNS.length, 'one cell per CLAIMS.md column');
  t.equal(c.length, cells(claimTableHeader().split('\n')[0]!).length);
  t.equal(c[0], 'fixture-host');
  t.equal(c[1], '1.2.3');
  t.equal(c[2], 'agent-hooks/0.1');
  t.equal(c[3], 'model\\_calls, tool\\_calls, buffered\\_output');
  t.match(c[4], /sequential\/first\\_deny \(on\\_approval: stop, resume\); parallel\/strictest/);
  t.equal(c[5], 'jcs-sha256');
  t.equal(c[6], 'typescript@0.1.0');
  t.equal(c[7], "layout: the reference loop's; postures: tool\\_seam\\_host\\_error=continue, stop\\_approval\\_fold\\_truncated=when\\_skipped; readings: errored\\_model\\_call=post\\_model\\_call", 'declared choices: layout, every posture and every reading');
  t.equal(c[8], '2/2 passed, 1 skipped (1 not declared)');
  t.match(c[9], /jcs-sha256 is content-derived/);
  t.match(c[10], /^agent-hooks-ctk 0\.1\.0, `sha256:[0-9a-f]{64}`$/);
  t.equal(c[11], '2026-11-29');
  t.equal(c[12], '[CLAIM.md](reports/CLAIM.md)');
  t.same(claim.tuple.capabilities, ['model_calls', 'tool_calls', 'buffered_output']);

  const md = claim.reportMarkdown;
  t.match(md, /^# Conformance claim: fixture-host 1\.2\.3/);
  t.match(md, /## Claim tuple \(§13\.3\)/);
  t.match(md, /\| core \| 1 \| 0 \| 0 \|/);
  t.match(md, /### approval\\_seam/);
  t.match(md, /\| AH-CTK-003 \| title of AH-CTK-003 \| §6 \| skipped: host does not declare profile parallel/);
  t.match(md, /not a security certification \(§1\.4\)/);
  t.match(md, /Suite digest: `sha256:/);
  t.match(md, /1 more do not apply to it: 1 need what the host does not declare\./);
  t.match(md, /\| Conversation layout \| assistant\\_turn=after\\_tool\\_results, /);
});

t.test('skips split by gate: not declared, layout-gated, posture-gated, in the row and the claim report', async (t) => {
  const gated = buildReport([
    pass('AH-CTK-001'),
    skip('AH-CTK-002', 'core', 'host does not declare capability streaming', { skip_kind: 'undeclared', skip_gate: 'not_declared' }),
    skip('AH-CTK-003', 'core', 'host declares conversation layout host_messages=prepended; the vector depends on host_messages=none', { skip_kind: 'undeclared', skip_gate: 'layout' }),
    skip('AH-CTK-004', 'core', 'host does not declare posture tool_seam_host_error=terminate (it declares tool_seam_host_error=continue)', { skip_kind: 'undeclared', skip_gate: 'posture' }),
    // A report written before skip_gate: the gate is read from the reason.
    skip('AH-CTK-005', 'core', 'host does not declare posture stop_approval_fold_truncated=always (it declares stop_approval_fold_truncated=when_skipped)'),
    skip('AH-CTK-006', 'core', 'host declares conversation layout history=session; the vector depends on history=turn'),
  ]);
  const claim = buildClaim(gated, 'CLAIM.md');
  t.equal(cells(claim.row)[8], '1/1 passed, 5 skipped (1 not declared, 2 layout-gated, 2 posture-gated)');
  t.match(claim.reportMarkdown, /5 more do not apply to it: 1 need what the host does not declare, 2 depend on a conversation layout other than the declared one, 2 apply to a posture value other than the declared one\./);
});

t.test('the Declared choices cell names the layout members a host changes, its postures and its readings', async (t) => {
  const s = surface({ layout: { history: 'session', host_messages: [{ role: 'system', content: 'be brief' }] }, postures: { tool_seam_host_error: 'terminate' } } as never);
  const row = buildClaim(buildReport([pass('AH-CTK-001')], s), 'CLAIM.md').row;
  t.equal(cells(row)[7], "layout: history=session, host\\_messages=prepended (rest: reference loop's); postures: tool\\_seam\\_host\\_error=terminate, stop\\_approval\\_fold\\_truncated=when\\_skipped; readings: errored\\_model\\_call=post\\_model\\_call");
});

t.test('refusals: failures, foreign skips, nothing ran, inconsistent reports', async (t) => {
  t.same(claimRefusals(passingReport()), []);
  const failing = claimRefusals(mixedReport());
  t.equal(failing.length, 1);
  t.match(failing[0], /1 vector failed; a claim needs 100% of the applicable vectors to pass \(§13\.2\):\n {6}AH-CTK-003 \(deny/, 'one failure per line');
  const two = claimRefusals(buildReport([fail('AH-CTK-001', 'core', [failure({ message: 'first reason' })]), fail('AH-CTK-002', 'core', [failure({ message: 'second reason' })])]));
  t.match(two[0], /:\n {6}AH-CTK-001 \(first reason\)\n {6}AH-CTK-002 \(second reason\)$/, 'each failed vector on its own line');

  const foreign = buildReport([pass('AH-CTK-001'), skip('AH-CTK-002', 'core', 'filtered out by --only')]);
  t.match(claimRefusals(foreign).join("\n"), /1 vector was skipped for a reason other than [^\n]*:\n {6}AH-CTK-002 \(filtered out by --only\)/);

  const kindOther = buildReport([pass('AH-CTK-001'), skip('AH-CTK-002', 'core', 'host does not declare x', { skip_kind: 'other' })]);
  t.equal(claimRefusals(kindOther).length, 1, 'skip_kind wins over the reason text');
  const kindUndeclared = buildReport([pass('AH-CTK-001'), skip('AH-CTK-002', 'core', 'needs streaming', { skip_kind: 'undeclared' })]);
  t.same(claimRefusals(kindUndeclared), []);

  const nothing = buildReport([skip('AH-CTK-001', 'core', 'host does not declare capability tool_calls')]);
  t.match(claimRefusals(nothing).join('\n'), /nothing ran/);
  t.match(claimRefusals(buildReport([])).join('\n'), /nothing ran/);

  const lying = passingReport();
  lying.summary.failed = 0;
  lying.summary.passed = 3;
  t.match(claimRefusals(lying).join('\n'), /summary .* does not match its results/);

  const edited = passingReport();
  edited.results[0]!.digest = 'sha256:' + 'f'.repeat(64);
  t.match(claimRefusals(edited).join('\n'), /not the digest of its own vector digests/);
  edited.suite.digest = suiteDigest(edited.results);
  t.same(claimRefusals(edited), [], 'consistent again once the suite digest covers the results');

  const filtered = passingReport();
  filtered.suite.selection = { parts: ['approval_seam'], loaded: 12 };
  t.match(claimRefusals(filtered).join('\n'), /the run was narrowed: --part approval_seam \(3 of 12 loaded vectors ran\)/);
  filtered.suite.selection = { loaded: 3 };
  t.same(claimRefusals(filtered), [], 'a selection that kept everything is no obstacle');

  t.throws(() => buildClaim(mixedReport(), 'REPORT.md'), ClaimRefused);
});

t.test('disclosures: null provider, unbuffered output, non-default posture, provider derivation, evaluate_only', async (t) => {
  const all = claimDisclosures(
    surface({
      identity_providers: ['jcs-sha256', null, 'ctk-fault', 'hmac-sha256-k1', 'opaque-ids', 'mystery'],
      buffered_output: false,
      capabilities: ['tool_calls'],
      postures: { tool_seam_host_error: 'terminate', stop_approval_fold_truncated: 'always' },
      identity_provider_content_derived: { 'hmac-sha256-k1': true, 'opaque-ids': false },
    } as Parameters<typeof surface>[0]),
  );
  const text = all.map((d) => d.text).join('\n');
  t.match(text, /approvals and records are identity-unbound/);
  t.match(text, /a deny at output cannot retract already-streamed content/);
  t.match(text, /Non-default posture `tool_seam_host_error: terminate` \(§6\.2, §13\.1\): a `host_error:\*` deny at pre_tool_call or post_tool_call terminates the turn/);
  t.match(text, /Non-default posture `stop_approval_fold_truncated: always` \(§7\.4, §10\.3\)/, 'every registered posture is disclosed from the registry');
  t.match(text, /`jcs-sha256` is content-derived/);
  t.match(text, /`ctk-fault` is the CTK's fault-injection provider/);
  t.match(text, /`hmac-sha256-k1` is content-derived/);
  t.match(text, /`opaque-ids` is not content-derived/);
  t.match(text, /`mystery`: the host did not declare whether it is content-derived/);
  t.match(text, /MUST NOT be presented as enforcement/);
  t.match(text, /performs no model calls/);
  const shorts = all.map((d) => d.short).join('; ');
  t.match(shorts, /identity provider null: approvals and records are identity-unbound/);
  t.match(shorts, /buffered_output=false: a deny at output cannot retract already-streamed content/);

  const row = buildClaim(buildReport([pass('AH-CTK-001')], surface({ identity_providers: [null], buffered_output: false })), 'R.md').row;
  const c = cells(row);
  t.match(c[3], /buffered\\_output=false/);
  t.match(c[9], /identity-unbound/);
  t.match(c[9], /cannot retract already-streamed content/);

  t.match(text, /`incremental_output` is not declared/, 'unbuffered without incremental mediation says so');

  const quiet = claimDisclosures(surface({ modes: ['enforce'] }));
  t.same(quiet.map((d) => d.short), ['jcs-sha256 is content-derived'], 'a default surface discloses only the provider derivation');
});

t.test('REPORT.md states the postures and what the host does not declare, and why', async (t) => {
  const report = passingReport();
  report.host.surface = { ...report.host.surface, not_declared: { structured_model_content: 'the model interface is text-only' } };
  const md = buildClaim(report, 'REPORT.md').reportMarkdown;
  t.match(md, /\| Postures \| tool\\_seam\\_host\\_error: continue \(default\) \|/);
  t.match(md, /## Not declared, and why/);
  t.match(md, /\| structured\\_model\\_content \| the model interface is text-only \|/);
  t.notMatch(buildClaim(passingReport(), 'REPORT.md').reportMarkdown, /Not declared, and why/, 'no section when the surface gives none');
});

t.test('hostile names stay inside their cells', async (t) => {
  const s = surface({ name: 'evil | host', version: '1.0\n| x |' });
  const row = buildClaim(buildReport([pass('AH-CTK-001')], s), 'a b/REPORT.md').row;
  t.equal(cells(row).length, CLAIM_COLUMNS.length);
  t.notMatch(row, /\n/);
  t.match(row, /\[REPORT\.md\]\(a%20b\/REPORT\.md\)/);
});

t.test('disclosures (§12.1a, §13.3): an incremental host states incremental_output and its exposure bound', async (t) => {
  const all = claimDisclosures(
    surface({ buffered_output: false, capabilities: ['model_calls', 'streaming', 'incremental_output'], exposure_bound: 'none: release is watermark-gated' } as Parameters<typeof surface>[0]),
  );
  const shorts = all.map((d) => d.short);
  t.ok(shorts.includes('buffered_output=false: a deny at output cannot retract already-streamed content'));
  t.ok(shorts.includes('incremental_output: streamed responses mediated incrementally (§12.1 exception)'));
  t.ok(shorts.includes('exposure bound: none: release is watermark-gated'));
  t.match(all.map((d) => d.text).join('\n'), /Exposure bound \(§12\.1a\): none: release is watermark-gated\./);
  const row = buildClaim(buildReport([pass('AH-CTK-001')], surface({ buffered_output: false, capabilities: ['incremental_output'], exposure_bound: 'none: release is watermark-gated' } as Parameters<typeof surface>[0])), 'R.md').row;
  t.match(cells(row)[9], /exposure bound: none: release is watermark-gated/);
  t.match(cells(row)[3], /incremental\\_output/);
});

t.test('CLAIMS.md uses the same columns as the row claim prints', async (t) => {
  const claims = await readFile(path.join(PACKAGE_ROOT, 'CLAIMS.md'), 'utf8');
  const header = claimTableHeader().split('\n')[0]!;
  const lines = claims.split('\n');
  const at = lines.indexOf(header);
  t.ok(at >= 0, 'CLAIMS.md carries the claim table header');
  for (let i = at + 2; i < lines.length && lines[i]!.startsWith('|'); i++) {
    t.equal(cells(lines[i]!).length, CLAIM_COLUMNS.length, `CLAIMS.md row ${i + 1} has every column`);
  }
});

t.test('upsertClaimRow replaces the row of the same framework and version, or appends', async (t) => {
  const base = `# Claims\n\ntext\n\n${claimTableHeader()}\n| a | 1 | old |\n| b | 2 | keep |\n\nafter\n`;
  const replaced = upsertClaimRow(base, '| a | 1 | new |');
  t.match(replaced, /\| a \| 1 \| new \|\n\| b \| 2 \| keep \|\n\nafter/);
  t.notMatch(replaced, /old/);
  const appended = upsertClaimRow(base, '| c | 3 | added |');
  t.match(appended, /\| b \| 2 \| keep \|\n\| c \| 3 \| added \|\n\nafter/);
  const empty = upsertClaimRow(`${claimTableHeader()}\n`, '| c | 3 | x |');
  t.equal(empty, `${claimTableHeader()}\n| c | 3 | x |\n`);
  t.throws(() => upsertClaimRow('# nothing here', '| a |'), /no claims table/);
});

t.test('the committed reference-host claim matches the committed report', async (t) => {
  const claims = await readFile(path.join(PACKAGE_ROOT, 'CLAIMS.md'), 'utf8');
  const report = JSON.parse(await readFile(path.join(PACKAGE_ROOT, 'reports', 'report.json'), 'utf8'));
  const row = claims.split('\n').find((l) => l.startsWith(`| ${report.host.name.replace(/_/g, '\\_')} |`));
  t.ok(row, 'CLAIMS.md has a row for the reference host');
  t.match(row, report.suite.digest, 'its suite digest is the one reports/report.json ran (regenerate both with npm run report)');
});

t.test('CLI: writes CLAIM.md next to the report (never beside report.md under a case-insensitive alias) and prints the row; refuses with exit 1; bad report exit 2', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ctk-claim-'));
  await writeReports(passingReport(), ['json', 'markdown'], path.join(dir, 'ok'));
  const ok = await execa('node', [BIN, 'claim', path.join(dir, 'ok', 'report.json'), '--header'], { reject: false, cwd: dir });
  t.equal(ok.exitCode, 0, ok.stderr);
  const [head, sep, row] = ok.stdout.split('\n');
  t.equal(`${head}\n${sep}`, claimTableHeader());
  t.equal(cells(row!).length, CLAIM_COLUMNS.length);
  t.match(row, /\[CLAIM\.md\]\(ok\/CLAIM\.md\)/);
  t.match(ok.stderr, /wrote .*ok\/CLAIM\.md/);
  t.match(await readFile(path.join(dir, 'ok', 'CLAIM.md'), 'utf8'), /# Conformance claim: fixture-host/);
  t.match(await readFile(path.join(dir, 'ok', 'report.md'), 'utf8'), /fixture-host/, "the markdown reporter's report.md is still its own");
  t.notMatch(await readFile(path.join(dir, 'ok', 'report.md'), 'utf8'), /# Conformance claim/, 'and not overwritten by the claim');

  const custom = await execa('node', [BIN, 'claim', path.join(dir, 'ok', 'report.json'), '--out', path.join(dir, 'claims', 'host.md')], { reject: false, cwd: dir });
  t.equal(custom.exitCode, 0, custom.stderr);
  t.match(custom.stdout, /\(claims\/host\.md\)/);

  await writeReports(mixedReport(), ['json'], path.join(dir, 'bad'));
  const refused = await execa('node', [BIN, 'claim', path.join(dir, 'bad', 'report.json')], { reject: false, cwd: dir });
  t.equal(refused.exitCode, 1);
  t.match(refused.stderr, /no claim can be made from this report:\n {2}- 1 vector failed/);
  t.equal(refused.stdout, '');

  const missing = await execa('node', [BIN, 'claim', path.join(dir, 'none.json')], { reject: false });
  t.equal(missing.exitCode, 2);
  t.match(missing.stderr, /none\.json: no such report file/);

  await mkdir(path.join(dir, 'vec'));
  await writeFile(path.join(dir, 'vec', 'x.json'), '{"id":"AH-CTK-001","title":"changed"}');
  const claimsFile = path.join(dir, 'CLAIMS.md');
  await writeFile(claimsFile, `# Claims\n\n${claimTableHeader()}\n`);
  const upd = await execa('node', [BIN, 'claim', path.join(dir, 'ok', 'report.json'), '--claims-file', claimsFile], { reject: false, cwd: dir });
  t.equal(upd.exitCode, 0, upd.stderr);
  await execa('node', [BIN, 'claim', path.join(dir, 'ok', 'report.json'), '--claims-file', claimsFile], { reject: false, cwd: dir });
  const claimsText = await readFile(claimsFile, 'utf8');
  t.equal(claimsText.split('\n').filter((l) => l.startsWith('| fixture-host |')).length, 1, 'run twice, one row');
  t.match(claimsText, /\[CLAIM\.md\]\(ok\/CLAIM\.md\)/, 'linked relative to the claims file');
  await mkdir(path.join(dir, 'docs'));
  await writeFile(path.join(dir, 'docs', 'CLAIMS.md'), `${claimTableHeader()}\n`);
  await execa('node', [BIN, 'claim', path.join(dir, 'ok', 'report.json'), '--claims-file', 'docs/CLAIMS.md'], { reject: false, cwd: dir });
  t.match(await readFile(path.join(dir, 'docs', 'CLAIMS.md'), 'utf8'), /\[CLAIM\.md\]\(\.\.\/ok\/CLAIM\.md\)/);
  const noTable = await execa('node', [BIN, 'claim', path.join(dir, 'ok', 'report.json'), '--claims-file', path.join(dir, 'ok', 'report.md')], { reject: false, cwd: dir });
  t.equal(noTable.exitCode, 2);
  t.match(noTable.stderr, /no claims table with the header/);

  const stale = await execa('node', [BIN, 'claim', path.join(dir, 'ok', 'report.json'), '--vectors', path.join(dir, 'vec')], { reject: false });
  t.equal(stale.exitCode, 1);
  t.match(stale.stderr, /the vectors no longer match the report/);
});
