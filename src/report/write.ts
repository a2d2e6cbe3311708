// Writes the report in every requested format into one directory. STUB: owned by the reports issue
// (json only for now; markdown, junit, tap, html and badge land with it).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ConformanceReport } from './model.js';

export const FILE_REPORTERS = ['json', 'markdown', 'junit', 'tap', 'html', 'badge'] as const;
export type FileReporter = (typeof FILE_REPORTERS)[number];

/** Writes report.json always, plus each requested format; returns the paths written. */
export async function writeReports(report: ConformanceReport, formats: readonly string[], outDir: string): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const file = path.join(outDir, 'report.json');
  await writeFile(file, JSON.stringify(report, null, 2) + '\n');
  void formats;
  return [file];
}
