// Writes the report in every requested format into one directory: report.json always, plus
// report.md, junit.xml, report.tap, report.html and badge.svg on request. The terminal reporter is
// the runner's and is ignored here.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'lossless-json';
import type { ConformanceReport } from '../results/model.js';

export const FILE_REPORTERS = ['json', 'markdown', 'junit', 'tap', 'html', 'badge'] as const;
export type FileReporter = (typeof FILE_REPORTERS)[number];

/** Reporter names the runner handles itself (printed, not written here). */
export const CONSOLE_REPORTERS = ['terminal'] as const;

export const REPORT_FILES: Readonly<Record<FileReporter, string>> = {
  json: 'report.json',
  markdown: 'report.md',
  junit: 'junit.xml',
  tap: 'report.tap',
  html: 'report.html',
  badge: 'badge.svg',
};

type Renderer = (report: ConformanceReport) => string;

/** Each file reporter's module is imported only when its format is asked for (tap's brings yaml with it). */
const RENDERERS: Readonly<Record<FileReporter, () => Promise<Renderer>>> = {
  json: async () => renderJson,
  markdown: async () => (await import('./markdown.js')).renderMarkdown,
  junit: async () => (await import('./junit.js')).renderJunit,
  tap: async () => (await import('./tap.js')).renderTap,
  html: async () => (await import('./html.js')).renderHtml,
  badge: async () => (await import('./badge.js')).renderBadge,
};

export class UnknownReporterError extends Error {
  constructor(readonly reporter: string) {
    super(`unknown reporter "${reporter}"; choose from ${[...CONSOLE_REPORTERS, ...FILE_REPORTERS].join(', ')}`);
    this.name = 'UnknownReporterError';
  }
}

/** The output directory or a report file could not be written (the CLI maps this to exit 2). */
export class ReportWriteError extends Error {
  constructor(
    readonly target: string,
    readonly code: string | undefined,
  ) {
    super(`${target}: cannot write the report here (${code ?? 'unknown error'}); --out must name a writable directory`);
    this.name = 'ReportWriteError';
  }
}

export function isFileReporter(name: string): name is FileReporter {
  return (FILE_REPORTERS as readonly string[]).includes(name);
}

/** Throws UnknownReporterError for any name that is neither a file nor a console reporter. */
export function checkReporters(formats: readonly string[]): void {
  for (const f of formats) {
    if (!isFileReporter(f) && !(CONSOLE_REPORTERS as readonly string[]).includes(f)) throw new UnknownReporterError(f);
  }
}

/** report.json: the ConformanceReport as data; numbers the vectors carried beyond 2^53 keep their exact text. */
export function renderJson(report: ConformanceReport): string {
  return (stringify(report, null, 2) ?? '{}') + '\n';
}

/** Writes report.json always, plus each requested format; returns the paths written. */
export async function writeReports(report: ConformanceReport, formats: readonly string[], outDir: string): Promise<string[]> {
  checkReporters(formats);
  const wanted = new Set<FileReporter>(['json']);
  for (const f of formats) if (isFileReporter(f)) wanted.add(f);
  try {
    await mkdir(outDir, { recursive: true });
  } catch (error) {
    throw new ReportWriteError(outDir, (error as NodeJS.ErrnoException).code);
  }
  const written: string[] = [];
  for (const format of FILE_REPORTERS) {
    if (!wanted.has(format)) continue;
    const file = path.join(outDir, REPORT_FILES[format]);
    const text = (await RENDERERS[format]())(report);
    try {
      await writeFile(file, text);
    } catch (error) {
      throw new ReportWriteError(file, (error as NodeJS.ErrnoException).code);
    }
    written.push(file);
  }
  return written;
}
