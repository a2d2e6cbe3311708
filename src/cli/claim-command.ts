// `claim REPORT [--out FILE]`: prints the §13.3 claim tuple as a paste-ready CLAIMS.md row and writes
// the per-part claim report CLAIM.md (next to the report, or at --out): a name no reporter writes, so it never
// shares a folder and a case-insensitive name with the markdown reporter's report.md. Refuses with exit 1 and every reason when
// the report cannot support a claim; exit 2 for a missing or malformed report.
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { CliError, EXIT } from './exit.js';
import { buildClaim, claimTableHeader, ClaimRefused, upsertClaimRow } from '../report/claim.js';
import { loadReportOrThrow, verifyReportFile } from './verify-report-command.js';
import { defaultVectorPaths } from '../ctk/load.js';

/** The claim report's default name beside report.json. */
export const CLAIM_REPORT_FILE = 'CLAIM.md';

interface ClaimOptions {
  out?: string;
  claimsFile?: string;
  vectors?: string[] | true;
  header?: boolean;
}

export function register(program: Command): void {
  program
    .command('claim')
    .description('Turn a passing report into a §13.3 claim: a CLAIMS.md table row (stdout) and a per-part CLAIM.md')
    .argument('<report>', 'a report.json written by `run`')
    .option('--out <file>', 'where to write the claim report (default: CLAIM.md next to the report)')
    .option('--vectors [dir...]', 'first verify that these vectors (no directory: the package vectors/) still hash to what the report says')
    .option('--header', 'print the CLAIMS.md table header before the row')
    .option('--claims-file <file>', 'also put the row into this CLAIMS.md (replacing the row of the same framework and version)')
    .action(async (reportFile: string, opts: ClaimOptions) => {
      await runClaim(reportFile, opts);
    });
}

async function runClaim(reportFile: string, opts: ClaimOptions): Promise<void> {
  const report = opts.vectors ? await verifiedReport(reportFile, opts.vectors === true ? defaultVectorPaths() : opts.vectors) : await loadReportOrThrow(reportFile);
  const out = opts.out ?? path.join(path.dirname(reportFile), CLAIM_REPORT_FILE);
  refuseCaseAlias(out);
  // The row links to the claim report relative to where the row will live: the claims file, else the working directory.
  const linkBase = opts.claimsFile !== undefined ? path.dirname(path.resolve(opts.claimsFile)) : process.cwd();
  const link = path.relative(linkBase, path.resolve(out)) || out;
  let claim;
  try {
    claim = buildClaim(report, link);
  } catch (error) {
    if (error instanceof ClaimRefused) throw new CliError(EXIT.failed, `${reportFile}: ${error.message}`);
    throw error;
  }
  // Check the claims file before writing anything, so a bad --claims-file leaves no half-made claim behind.
  const claimsUpdate = opts.claimsFile !== undefined ? await updatedClaimsFile(opts.claimsFile, claim.row) : undefined;
  try {
    await mkdir(path.dirname(path.resolve(out)), { recursive: true });
    await writeFile(out, claim.reportMarkdown);
  } catch (error) {
    throw new CliError(EXIT.badInput, `${out}: cannot write the claim report (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  if (opts.header) process.stdout.write(claimTableHeader() + '\n');
  process.stdout.write(claim.row + '\n');
  if (opts.claimsFile !== undefined) {
    try {
      await writeFile(opts.claimsFile, claimsUpdate!);
    } catch (error) {
      throw new CliError(EXIT.badInput, `${opts.claimsFile}: cannot write the claims file (${(error as NodeJS.ErrnoException).code ?? String(error)}); ${out} was written, the row is above`);
    }
    process.stderr.write(`wrote ${out}; updated ${opts.claimsFile}\n`);
  } else {
    process.stderr.write(`wrote ${out}; paste the row above into CLAIMS.md\n`);
  }
}

/** The claims file's new text with the row put in; exit 2 when it cannot be read or has no claims table. */
async function updatedClaimsFile(file: string, row: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(EXIT.badInput, `${file}: cannot read the claims file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  try {
    return upsertClaimRow(text, row);
  } catch (error) {
    throw new CliError(EXIT.badInput, `${file}: ${(error as Error).message}; add the table header (claim --header prints it)`);
  }
}

async function verifiedReport(reportFile: string, vectors: string[]) {
  const outcome = await verifyReportFile(reportFile, vectors);
  if (!outcome.ok) {
    throw new CliError(EXIT.failed, `${reportFile}: the vectors no longer match the report, so no claim can be made:\n${outcome.lines.map((l) => `  ${l}`).join('\n')}`);
  }
  return outcome.report;
}

/** On a case-insensitive file system two names differing only in case are one file: an --out that aliases an existing file (e.g. REPORT.md over the reporter's report.md) is refused. */
function refuseCaseAlias(out: string): void {
  const dir = path.dirname(path.resolve(out));
  const base = path.basename(out);
  if (!existsSync(out)) return;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  if (!names.includes(base)) {
    const alias = names.find((n) => n.toLowerCase() === base.toLowerCase());
    throw new CliError(
      EXIT.badInput,
      `${out}: this file system treats it as the existing ${alias ?? 'file'} (names differ only in case); pass --out with another name, e.g. --out ${path.join(path.dirname(out), 'CLAIM-REPORT.md')}`,
    );
  }
}
