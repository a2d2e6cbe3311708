// `--trace DIR`: one DIR/<id>.json per vector with everything the runner observed.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringifyLossless } from './json.js';

export interface VectorTrace {
  id: string;
  file?: string;
  status: string;
  reason?: string;
  setup?: unknown;
  /** What the first interceptor received, in order. */
  contexts: unknown[];
  records: unknown[];
  identities: unknown[];
  model_calls: unknown[];
  /** Streamed responses: chunks scripted, chunks the host pulled (GRAMMAR.md §9.1). */
  streams?: unknown[];
  tool_invocations: unknown[];
  approval_requests: unknown[];
  outcome: unknown;
  final_output: unknown;
  outputs?: unknown;
  /** What the host reports it released to the caller and persisted (GRAMMAR.md §9.2). */
  released_output?: unknown;
  persisted?: string;
  error?: string;
  notes: string[];
  log: string[];
  failures: unknown[];
}

export async function writeTrace(dir: string, trace: VectorTrace): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${trace.id}.json`);
  await writeFile(file, stringifyLossless(trace, 2) + '\n');
  return file;
}
