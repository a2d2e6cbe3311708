// Puts the Agent Framework's row into CLAIMS.md from a report that `claim` refuses (it has failures): the same
// columns and tuple a claim has, the Result cell saying there is no claim and why, the Report cell linking the run's
// report.md. Run by report.sh after `npm run build`.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { claimDisclosures, claimTuple, upsertClaimRow } from '../../dist/src/report/claim.js';
import { mdCode, mdText } from '../../dist/src/report/markdown.js';

const [reportFile, claimsFile] = process.argv.slice(2);
const report = JSON.parse(readFileSync(reportFile, 'utf8'));
const tuple = claimTuple(report);
const { passed, failed, skipped } = report.summary;
const result = `no claim: ${passed}/${passed + failed} passed, ${failed} failed, ${skipped} skipped (not declared); §13.2 asks for every applicable vector`;
const link = path.relative(path.dirname(claimsFile), path.join(path.dirname(reportFile), 'report.md')).split(path.sep).join('/');
const cells = [tuple.framework, tuple.adapter_version, tuple.spec, tuple.capabilities.join(', '), tuple.profiles,
  tuple.identity_providers.join(', ') || 'none', tuple.sdk, result,
  claimDisclosures(report.host.surface).map((d) => d.short).join('; ') || 'none'].map(mdText);
cells.push(`${mdText(`${report.ctk.name} ${report.ctk.version}`)}, ${mdCode(report.suite.digest)}`,
  mdText((report.environment?.finished_at ?? '').slice(0, 10) || 'unknown'), `[report.md](${encodeURI(link)})`);
writeFileSync(claimsFile, upsertClaimRow(readFileSync(claimsFile, 'utf8'), `| ${cells.join(' | ')} |`));
