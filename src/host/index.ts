// The reference host as a library: an AGENT-HOOKS-0.1 emitter, the reference agent loop, Verdict constructors.
export { Verdict, isPermit, isLiftable, type VerdictExtras } from './verdict.js';
export { createEmitter, resolveComposition, HostConfigError, DEFAULT_INTERCEPTOR_TIMEOUT_MS, DEFAULT_RESOLVER_TIMEOUT_MS, type Emitter } from './emitter.js';
export {
  createAgentLoop,
  type AgentLoop,
  type AgentLoopOptions,
  type LoopResult,
  type TurnInput,
  type LoopModelResponse,
} from './loop.js';
export type { ModelRequest, ModelResponse, ToolCall, ToolCallRequest, ToolCallResult, RunOutcome } from '../core/agent-io.js';
export type { ToolSeamPosture } from '../core/postures.js';
/** ModelResponse under the name the framework integrations import it by. */
export type { ModelResponse as HookModelResponse } from '../core/agent-io.js';
export { DEFAULT_PARTS, resolveParts, type HostParts, type HostPartsOverride } from './parts.js';
export {
  resolveIdentityProvider,
  validateProviderName,
  IdentityProviderNameError,
  JCS_SHA256_PROVIDER,
  NO_IDENTITY,
  PROVIDER_NAME,
} from './identity-providers.js';
export { truncateMessage, projectVerdict, MESSAGE_MAX_BYTES } from './record.js';
export { severity, selectWinner, unionWarnings, unionLabels } from './aggregate.js';
export { validateResolution } from './approval.js';
export { assembleStream, STREAM_INCOMPLETE, type StreamChunk, type Assembly } from './stream.js';
export { deriveNamespace, validateNamespace, mergeLabels, HOST_LABEL_NAMESPACE } from './labels.js';
export type {
  Interceptor,
  InterceptorLike,
  ApprovalResolver,
  ApprovalRedactor,
  CustomIdentityProvider,
  IdentityProviderOption,
  EmitOptions,
  Emission,
  LabelSet,
} from './types.js';
export type { EmitterOptions } from './options.js';
export type { Bounds } from '../core/envelope.js';
export {
  createHookSession,
  createFrameworkHookSession,
  type FrameworkHooksOptions,
  AgentHooksBlocked,
  AgentHooksProjectionFailed,
  findBlocked,
  type HoldsTarget,
  type PointOptions,
  type HookSession,
  type HookSessionOptions,
  type ToolConcurrency,
  type HookToolOutcome,
  type HookToolResult,
} from './session.js';
export * from './framework-kit.js';
