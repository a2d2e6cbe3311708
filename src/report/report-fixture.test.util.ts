// Test helper: hand-made ConformanceReports for the reporter, claim and verify tests.
import type { HostSurface } from '../harness/contract.js';
import type { ConformanceReport, Failure, VectorResult } from '../results/model.js';
import { suiteDigest } from '../results/digest.js';
import { summarizeParts } from '../results/tally.js';

export function surface(overrides: Partial<HostSurface> = {}): HostSurface {
  return {
    name: 'fixture-host',
    version: '1.2.3',
    sdk: { lang: 'typescript', version: '0.1.0' },
    capabilities: ['model_calls', 'tool_calls', 'buffered_output'],
    buffered_output: true,
    profiles: {
      'sequential/first_deny': { on_approval: ['stop', 'resume'] },
      'parallel/strictest': { on_transform_conflict: ['deny'] },
    },
    identity_providers: ['jcs-sha256'],
    modes: ['enforce', 'evaluate_only'],
    postures: { tool_seam_host_error: 'continue' },
    ...overrides,
  };
}

let counter = 0;
function fakeDigest(id: string): string {
  counter++;
  const hex = Buffer.from(`${id}:${counter}`).toString('hex').padEnd(64, '0').slice(0, 64);
  return `sha256:${hex}`;
}

export function pass(id: string, part = 'core', extra: Partial<VectorResult> = {}): VectorResult {
  return { id, title: `title of ${id}`, part, spec_clause: '6', status: 'pass', failures: [], digest: fakeDigest(id), duration_ms: 3, ...extra };
}

export function skip(id: string, part: string, reason: string, extra: Partial<VectorResult> = {}): VectorResult {
  return { ...pass(id, part), status: 'skip', reason, duration_ms: 0, ...extra };
}

export function failure(overrides: Partial<Failure> = {}): Failure {
  return {
    clause: '6.2',
    check: 'expect.run_outcome',
    path: 'outcome',
    expected: 'blocked',
    got: 'completed',
    message: 'run outcome differs',
    ...overrides,
  };
}

export function fail(id: string, part = 'core', failures: Failure[] = [failure()], extra: Partial<VectorResult> = {}): VectorResult {
  return { ...pass(id, part), status: 'fail', reason: failures[0]?.message ?? 'failed', failures, ...extra };
}

/** A report over the given results, with parts and summary computed from them. */
export function buildReport(results: VectorResult[], hostSurface: HostSurface = surface()): ConformanceReport {
  const count = (s: string) => results.filter((r) => r.status === s).length;
  return {
    ctk: { name: 'agent-hooks-ctk', version: '0.1.0' },
    spec: 'agent-hooks/0.1',
    host: { name: hostSurface.name, version: hostSurface.version, surface: hostSurface },
    suite: { digest: suiteDigest(results), vectors: results.length, sources: ['vectors'] },
    summary: { total: results.length, passed: count('pass'), failed: count('fail'), skipped: count('skip') },
    parts: summarizeParts(results),
    results,
    environment: {
      node: 'v20.19.0',
      platform: 'linux',
      arch: 'x64',
      harness: 'reference',
      started_at: '2026-11-29T10:00:00.000Z',
      finished_at: '2026-11-29T10:00:01.000Z',
    },
  };
}

/** A mixed report: passes in two parts, one failure with hostile text, one skip. */
export function mixedReport(): ConformanceReport {
  return buildReport([
    pass('AH-CTK-001', 'core'),
    pass('AH-CTK-002', 'approval_seam'),
    fail('AH-CTK-003', 'approval_seam', [
      failure({ message: 'deny <b>did not</b> stop & "quote" #hash | pipe\u0001ctl', expected: { a: 1 }, got: [1, 'x'] }),
      failure({ check: 'invariant.sequence', clause: '3.1', path: undefined, expected: undefined, got: undefined, message: 'sequence not strictly increasing' }),
    ]),
    skip('AH-CTK-004', 'composition/parallel_unanimous', 'host does not declare profile parallel/unanimous'),
    pass('AH-CTK-005', 'core', { title: 'a title with # and \\ and <script>alert(1)</script>' }),
  ]);
}
