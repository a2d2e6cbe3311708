// Keeps a committed claim honest: why the report.json of a claim and its CLAIMS.md row no longer match a fresh
// run of the same host (npm run report regenerates both). Used by the framework integrations' tests.
import { readFileSync } from 'node:fs';
import type { ConformanceReport } from '../results/model.js';
import { compareReports } from './compare.js';
import { readReportFile } from './read.js';
import { rowCells } from './claim.js';
import { mdText } from './markdown.js';

/** Every way the committed claim differs from `fresh`; empty when it is current. */
export async function claimStaleness(reportFile: string, claimsFile: string, fresh: ConformanceReport): Promise<string[]> {
  const recorded = await readReportFile(reportFile);
  const problems = compareReports(recorded, fresh);
  const row = readFileSync(claimsFile, 'utf8')
    .split('\n')
    .find((line) => line.startsWith('|') && rowCells(line).slice(0, 2).join('|') === `${mdText(recorded.host.name)}|${mdText(recorded.host.version)}`);
  if (!row) problems.push(`${claimsFile} has no row for ${recorded.host.name} ${recorded.host.version}`);
  else if (!row.includes(recorded.suite.digest)) problems.push(`${claimsFile}: the ${recorded.host.name} row does not name the suite digest ${recorded.suite.digest} of ${reportFile}`);
  return problems;
}
