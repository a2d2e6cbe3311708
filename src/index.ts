// agent-hooks-ctk as a library: the spec core, the reference host, the harness contract and transports,
// the CTK runner, and the report model. The CLI (bin/agent-hooks-ctk.js) is a thin layer over these.
export * as core from './core/index.js';
export * from './host/index.js';
export type { Harness, HarnessFactory, HostSurface, RunSetup, RunReport, Scenario, ScriptedInterceptor, ScriptedResolver, InterceptorAction, ResolverAction, Capability } from './harness/contract.js';
export type { RunOutcome, ModelRequest, ModelResponse, ToolCallRequest, ToolCallResult } from './core/agent-io.js';
export { CAPABILITIES } from './harness/contract.js';
/** For framework harnesses that declare `streaming`: telling a streamed mock answer from a whole one. */
export { isModelStream, type ModelStream, type ModelStreamChunk } from './harness/contract.js';
export { resolvePostures, resolveReadings, nonDefaultPostures, nonDefaultReadings, type PostureCheck, type ReadingCheck } from './harness/declared-choices.js';
export { createReferenceHarness, referenceSurface, type ReferenceHarnessOptions } from './harness/reference-harness.js';
export * from './harness/scripted.js';
export * from './harness/session-harness.js';
export * from './harness/stdio/index.js';
export { loadVectors, defaultVectorPaths } from './ctk/load.js';
export { runSuite, runVector, type RunOptions, type ProgressEvent } from './ctk/runner.js';
export { verdictOf } from './results/tally.js';
export type { ConformanceReport, VectorResult, Failure, PartSummary } from './results/model.js';
export { writeReports } from './report/write.js';
export { CTK_NAME, CTK_VERSION } from './version.js';
export { compareReports } from './report/compare.js';
export { readReportFile } from './report/read.js';
export { claimStaleness } from './report/claim-current.js';
export { noClaimRow, upsertClaimRow } from './report/claim.js';
export { checkFrameworkHarness, type FrameworkCheck } from './testing/framework-check.js';
