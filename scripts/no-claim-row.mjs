// Puts a framework's row into CLAIMS.md from a report that `claim` refuses (it has failures): the claim
// tuple and disclosures, the Result cell saying there is no claim and why, a link to the run's report.md.
// Run by the report.sh of integrations/microsoft-agent-framework and integrations/pydantic-ai after `npm run build`.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { noClaimRow, upsertClaimRow } from 'agent-hooks-ctk';

const [reportFile, claimsFile] = process.argv.slice(2);
const report = JSON.parse(readFileSync(reportFile, 'utf8'));
const link = path.relative(path.dirname(claimsFile), path.join(path.dirname(reportFile), 'report.md')).split(path.sep).join('/');
writeFileSync(claimsFile, upsertClaimRow(readFileSync(claimsFile, 'utf8'), noClaimRow(report, link)));
