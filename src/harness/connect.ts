// Choosing and opening the host a run drives: an in-process harness module, a stdio host started as a subprocess,
// or the built-in reference host (in one of its configurations); then asking it for its declared surface and, after
// the last vector, closing it. Every command that drives a host goes through here; the CLI only maps the errors.
import { resolvePostures, resolveReadings } from './declared-choices.js';
import type { StreamMediation } from '../host/loop.js';
import type { Harness, HostSurface } from './contract.js';
import { HarnessLoadError, loadInProcessHarness } from './in-process.js';
import { createReferenceHarness, STREAMING_CONFIGURATIONS } from './reference-harness.js';
import type * as StdioClient from './stdio/client.js';
import { CommandLineError } from './stdio/command-line.js';
import { effectiveSurface, readSurfaceFile, SurfaceError } from './surface.js';
import { DescribeError, HarnessChoiceError } from './errors.js';

export { DescribeError, HarnessChoiceError };
import { resolveLayout } from './layout.js';

export interface HarnessChoice {
  /** An in-process harness module (`--harness`): a JS or TS file exporting createHarness or a default factory. */
  module?: string;
  /** A host speaking the stdio protocol (`--harness-cmd`): the command line that starts it. */
  command?: string;
  /** The built-in reference host's configuration (`--reference`): buffered (default) or incremental. */
  reference?: string;
  /** A declared-surface file (`--surface`): the reference host runs under the postures and the layout it declares. */
  surfaceFile?: string;
  /** The contested readings the reference host runs under (`--reading`; src/core/readings.ts). */
  readings?: Record<string, string>;
  /** Deadline for the stdio host's requests (ms; the client's default when absent). */
  timeoutMs?: number;
  /** Receives the stdio host's log lines (stderr). */
  onLog?: (line: string) => void;
}

export interface ConnectedHarness {
  harness: Harness;
  /** How the harness was chosen, for report.environment: "reference", "in-process:PATH", "stdio:CMD". */
  label: string;
}

/** Opens the harness the choice names: the module, the stdio command, or the reference host; never two of them. */
export async function connectHarness(choice: HarnessChoice): Promise<ConnectedHarness> {
  if (choice.module !== undefined && choice.command !== undefined) throw new HarnessChoiceError('give either --harness or --harness-cmd, not both');
  if (choice.reference !== undefined && (choice.module !== undefined || choice.command !== undefined))
    throw new HarnessChoiceError('--reference picks a configuration of the built-in reference host; it cannot be combined with --harness or --harness-cmd');
  if (choice.readings !== undefined && (choice.module !== undefined || choice.command !== undefined))
    throw new HarnessChoiceError('--reading picks a contested reading of the built-in reference host; a host given by --harness or --harness-cmd declares its readings in describe()');
  if (choice.module !== undefined) {
    try {
      return { harness: await loadInProcessHarness(choice.module), label: `in-process:${choice.module}` };
    } catch (error) {
      if (error instanceof HarnessLoadError) throw new HarnessChoiceError(error.message);
      throw error;
    }
  }
  if (choice.command !== undefined) {
    const { createStdioHarness } = await stdioClient();
    try {
      return {
        harness: createStdioHarness({
          command: choice.command,
          ...(choice.timeoutMs !== undefined ? { timeoutMs: choice.timeoutMs } : {}),
          ...(choice.onLog ? { onLog: choice.onLog } : {}),
        }),
        label: `stdio:${choice.command}`,
      };
    } catch (error) {
      if (error instanceof CommandLineError) throw new HarnessChoiceError(`--harness-cmd: ${error.message}`);
      throw error;
    }
  }
  const streaming = referenceConfiguration(choice.reference);
  const label = streaming === 'buffered' ? 'reference' : `reference (${streaming})`;
  // The built-in reference host runs under the postures and the conversation layout a surface file declares (it
  // honours every registered posture value and every layout), so the surface the report states is the one it ran.
  const declared = choice.surfaceFile !== undefined ? surfaceFile(choice.surfaceFile) : undefined;
  if (declared !== undefined) {
    const checked = resolvePostures(declared.postures);
    if (!checked.ok) throw new HarnessChoiceError(`invalid declared surface: ${choice.surfaceFile}: /postures${checked.name ? '/' + checked.name : ''}: ${checked.problem}`);
    const readings = resolveReadings({ ...((declared.readings as Record<string, unknown> | undefined) ?? {}), ...(choice.readings ?? {}) });
    if (!readings.ok) throw new HarnessChoiceError(`invalid declared surface: ${choice.surfaceFile}: /readings${readings.name ? '/' + readings.name : ''}: ${readings.problem}`);
    const layout = resolveLayout(declared.layout);
    if (!layout.ok) throw new HarnessChoiceError(`invalid declared surface: ${choice.surfaceFile}: /layout${layout.member ? '/' + layout.member : ''}: ${layout.problem}`);
    return { harness: createReferenceHarness({ postures: checked.postures, readings: readings.readings, streaming, layout: layout.layout }), label };
  }
  const readings = resolveReadings(choice.readings ?? {});
  if (!readings.ok) throw new HarnessChoiceError(`--reading ${readings.name}: ${readings.problem}`);
  return { harness: createReferenceHarness({ streaming, readings: readings.readings }), label };
}

let stdioModule: typeof StdioClient | undefined;

/** The stdio client (and execa with it) is imported only when a run drives a stdio host. */
async function stdioClient(): Promise<typeof StdioClient> {
  return (stdioModule ??= await import('./stdio/client.js'));
}

/** The reference host's configuration; only meaningful without a module or a command. */
function referenceConfiguration(value: string | undefined): StreamMediation {
  if (value === undefined) return 'buffered';
  if (!(STREAMING_CONFIGURATIONS as readonly string[]).includes(value))
    throw new HarnessChoiceError(`--reference: unknown configuration ${JSON.stringify(value)} (known: ${STREAMING_CONFIGURATIONS.join(', ')})`);
  return value as StreamMediation;
}

function surfaceFile(file: string): Record<string, unknown> {
  try {
    return readSurfaceFile(file);
  } catch (error) {
    if (error instanceof SurfaceError) throw new HarnessChoiceError(error.message);
    throw error;
  }
}

/**
 * §13.1: the surface in effect: what the harness describes (within `timeoutMs`), its members overridden by the
 * surface file when one is given, validated with defaults filled. A describe() that fails falls back on the file.
 */
export async function describeSurface(connected: ConnectedHarness, surfaceFilePath: string | undefined, timeoutMs: number): Promise<HostSurface> {
  const { harness, label } = connected;
  const override = surfaceFilePath !== undefined ? surfaceFile(surfaceFilePath) : undefined;
  let described: unknown;
  let timer: NodeJS.Timeout | undefined;
  try {
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`describe() did not answer within ${timeoutMs} ms`)), timeoutMs);
    });
    described = await Promise.race([Promise.resolve().then(() => harness.describe()), deadline]);
  } catch (error) {
    // A host command that cannot start is a wrong command line: bad input, with or without a surface file.
    // (The stdio client is imported here only on this failure path; a run without a stdio host never loads it.)
    if (error instanceof (await stdioClient()).StdioStartError) throw new HarnessChoiceError(`--harness-cmd: ${error.message}`);
    if (!override) throw new DescribeError(label, error instanceof Error ? error.message : String(error));
    described = {};
  } finally {
    clearTimeout(timer);
  }
  try {
    return effectiveSurface(described, override, surfaceFilePath, `describe() of ${label}`);
  } catch (error) {
    if (error instanceof SurfaceError) throw new HarnessChoiceError(`invalid declared surface: ${error.message}`);
    throw error;
  }
}

/**
 * close() once after the last vector, bounded: a close that hangs or throws is never waited on forever. Returns
 * the warning to show when it did not close cleanly, else undefined.
 */
export async function closeHarness(connected: ConnectedHarness, timeoutMs: number): Promise<string | undefined> {
  const { harness, label } = connected;
  if (!harness.close) return undefined;
  const limit = Math.min(timeoutMs, 10_000);
  let timer: NodeJS.Timeout | undefined;
  try {
    const closed = Promise.resolve().then(() => harness.close!());
    const deadline = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), limit)));
    if ((await Promise.race([closed, deadline])) === 'late') return `warning: the harness (${label}) did not finish close() within ${limit} ms; not waiting for it`;
    return undefined;
  } catch (error) {
    return `warning: the harness (${label}) close() failed: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    clearTimeout(timer);
  }
}
