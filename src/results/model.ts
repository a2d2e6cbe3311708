// The conformance report as data (rendered second by the reporters).
// report.json is exactly this shape.

import type { HostSurface } from '../harness/contract.js';

export type VectorStatus = 'pass' | 'fail' | 'skip';
export type SkipKind = 'undeclared' | 'other';

/** One failed check of a vector: which rule, where, what was expected and what happened. */
export interface Failure {
  /** Spec clause the failed check enforces, e.g. "3.1" or "10.3". */
  clause: string;
  /** What kind of check failed: "expect.records[0].assert", "invariant.sequence", "harness", "internal", … */
  check: string;
  /** Path inside the observed object (dotted), when there is one. */
  path?: string;
  expected?: unknown;
  got?: unknown;
  message: string;
  /** The same failure at several places (e.g. one invariant on 9 records), folded into this one (src/ctk/failures.ts). */
  repeated?: { count: number; paths: string[] };
}

export interface VectorResult {
  id: string;
  title: string;
  part: string;
  spec_clause: string;
  status: VectorStatus;
  /** Why it was skipped (always present on a skip) or a one-line summary of the failure. */
  reason?: string;
  /**
   * Optional, machine-readable kind of a skip: "undeclared" when the host's declared surface (§13.1) does
   * not include what the vector needs (a capability, profile, knob value, identity provider or mode) —
   * the only kind a claim accepts (§13.2). Readers fall back to the reason prefix "host does not declare".
   */
  skip_kind?: SkipKind;
  failures: Failure[];
  /** sha256 over the vector's RFC 8785 canonical bytes, "sha256:<hex>". */
  digest: string;
  /** The file the vector came from, relative to the working directory. */
  file?: string;
  duration_ms: number;
}

export interface PartSummary {
  part: string;
  passed: number;
  failed: number;
  skipped: number;
}

/** The filters a run applied and how many vectors were loaded before them. */
export interface SuiteSelection {
  grep?: string;
  parts?: string[];
  /** Vectors loaded before filtering. */
  loaded: number;
}

export interface RunEnvironment {
  node: string;
  platform: string;
  arch: string;
  harness: string;
  started_at: string;
  finished_at: string;
}

export interface ConformanceReport {
  ctk: { name: string; version: string };
  spec: string;
  host: { name: string; version: string; surface: HostSurface };
  suite: {
    digest: string;
    vectors: number;
    sources?: string[];
    /** Set when filters narrowed the run: a claim covers the whole loaded suite, so it refuses such a report (§13.2). */
    selection?: SuiteSelection;
  };
  summary: { total: number; passed: number; failed: number; skipped: number };
  parts: PartSummary[];
  results: VectorResult[];
  environment?: RunEnvironment;
}
