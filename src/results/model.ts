// The conformance report as data (rendered second by the reporters).
// report.json is exactly this shape. Members marked "optional" were added after the first release and are absent when
// unused (a run without --expected-failures writes none of the baseline members), so a report written before them
// reads the same, and a reader that predates them sees an expected failure as what its status says: a failure.

import type { HostSurface } from '../harness/contract.js';

export type VectorStatus = 'pass' | 'fail' | 'skip';
export type SkipKind = 'undeclared' | 'other';
/**
 * Which part of the declared surface (§13.1) gated a skip: something the host does not declare (a capability,
 * profile, knob value, identity provider, mode, buffered stream assembly), the conversation layout it declares, or the
 * posture value it declares.
 */
export type SkipGate = 'not_declared' | 'layout' | 'posture';
export const SKIP_GATES: readonly SkipGate[] = ['not_declared', 'layout', 'posture'];

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
  /** Optional, on every "undeclared" skip: which part of the declared surface gated it (absent in older reports). */
  skip_gate?: SkipGate;
  failures: Failure[];
  /** sha256 over the vector's RFC 8785 canonical bytes, "sha256:<hex>". */
  digest: string;
  /** The file the vector came from, relative to the working directory. */
  file?: string;
  duration_ms: number;
  /**
   * Optional: what the run's expected-failures baseline (`run --expected-failures FILE`) says of this vector, when the
   * baseline lists it. Absent on a vector the baseline does not list, and on one not run (--bail).
   */
  expected_failure?: ExpectedFailureMark;
}

/**
 * A baseline entry judged against the vector's result:
 * - "expected": the vector failed as listed (every failed check is the listed one, when one is listed): the run does
 *   not fail for it, and the reporters show it apart from the failures;
 * - "exceeded": listed for one check, it failed other checks too (or instead): a failure like any other;
 * - "stale": listed, yet it passed (or the host does not declare what it needs, so it cannot fail): the run fails
 *   until the entry is dropped, so a baseline only ever shrinks.
 */
export interface ExpectedFailureMark {
  state: ExpectedFailureState;
  /** The baseline's reason for the entry. */
  reason: string;
  /** The one check the entry lists (a Failure.check such as "expect.final_output"), when it lists one. */
  check?: string;
}
export type ExpectedFailureState = 'expected' | 'exceeded' | 'stale';
export const EXPECTED_FAILURE_STATES: readonly ExpectedFailureState[] = ['expected', 'exceeded', 'stale'];

/** Optional: the expected-failures baseline a run was judged against. */
export interface BaselineInfo {
  /** The file as given to --expected-failures. */
  file: string;
  /** "sha256:<hex>" over the file's bytes: shards of one run name the same baseline. */
  digest: string;
  /** Entries the file lists (some may name vectors this run did not select). */
  entries: number;
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
  /** Optional: --exclude-grep. */
  exclude_grep?: string;
  /** Optional: --exclude-part. */
  exclude_parts?: string[];
  /** Optional: --capability (vectors needing at least one of these). */
  capabilities?: string[];
  /** Optional: --shard, applied after the other filters. */
  shard?: ShardSelection;
  /** Vectors loaded before filtering. */
  loaded: number;
}

/** One of `count` disjoint parts of the filtered vectors (src/ctk/shard.ts states the rule). */
export interface ShardSelection {
  /** 1-based. */
  index: number;
  count: number;
  /** Vectors the other filters selected: the shards together run exactly these. */
  of: number;
  /** The suite digest of those `of` vectors: what the merged shards must add up to. */
  digest: string;
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
  summary: ReportSummary;
  parts: PartSummary[];
  results: VectorResult[];
  environment?: RunEnvironment;
  /** Optional: set when the run was judged against an expected-failures baseline. */
  baseline?: BaselineInfo;
}

export interface ReportSummary {
  total: number;
  passed: number;
  /** Every failed vector, the expected ones included (their status is "fail"). */
  failed: number;
  skipped: number;
  /** Optional (with a baseline): failed vectors the baseline expects. */
  expected_failures?: number;
  /** Optional (with a baseline): baseline entries whose vector did not fail. */
  stale?: number;
}
