// `identity --golden FILE`: one line per fixture, then a summary. Exit 0 when every sound fixture passed (a
// defective fixture is reported on its own line and in the summary, counted neither as a pass nor as a
// failure); 1 on any failure, or when no fixture passed; 2 on a file that is not a golden file.
import { CliError, EXIT, type ExitCode } from './exit.js';
import { GoldenFileError, readGoldenFile } from '../ctk/golden/file.js';
import { checkGolden, type GoldenResult } from '../ctk/golden/check.js';

const LABEL: Record<GoldenResult['status'], string> = { pass: 'pass     ', fail: 'FAIL     ', defective: 'defective' };

export function goldenReport(file: string): { text: string; exitCode: ExitCode } {
  let golden;
  try {
    golden = readGoldenFile(file);
  } catch (error) {
    if (error instanceof GoldenFileError) throw new CliError(EXIT.badInput, error.message);
    throw error;
  }
  const results = checkGolden(golden);
  const count = (s: GoldenResult['status']) => results.filter((r) => r.status === s).length;
  const [passed, failed, defective] = [count('pass'), count('fail'), count('defective')];
  const lines = results.map((r) => `${LABEL[r.status]} ${r.id}: ${r.detail}`);
  let summary = `${file}: ${results.length} fixtures: ${passed} passed, ${failed} failed, ${defective} defective`;
  if (defective > 0) summary += ' (a defective fixture contradicts RFC 8785 or §10.2 by itself; it is not a pass)';
  if (passed === 0 && failed === 0) summary += '; no fixture passed, so nothing was checked';
  lines.push(summary);
  return { text: lines.join('\n') + '\n', exitCode: failed > 0 || passed === 0 ? EXIT.failed : EXIT.ok };
}
