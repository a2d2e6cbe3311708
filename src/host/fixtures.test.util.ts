// Shared fixtures for the host's unit tests (not a test file itself; excluded from the package by *.test.*).
import type { AgentContext, JsonObject } from '../core/types.js';
import { createEmitter, type Emitter } from './emitter.js';
import type { InterceptorLike } from './types.js';
import type { EmitterOptions } from './options.js';

export const AGENT = { id: 'agent-under-test', framework: 'unit' };
export const SESSION = { id: 'session-1' };

export function emitterWith(interceptors: InterceptorLike[], options: Partial<EmitterOptions> = {}): Emitter {
  return createEmitter({ agent: AGENT, session: SESSION, interceptors, ...options });
}

export function toolFields(args: JsonObject = { amount: 840 }, name = 'issue_refund'): JsonObject {
  return { tool_call: { id: 'call-1', name, args } };
}

/** An interceptor that always answers `value` and logs the contexts it saw. */
export function answering(value: unknown, seen: AgentContext[] = [], name?: string): InterceptorLike {
  return { ...(name ? { name } : {}), intercept: (ctx: AgentContext) => {
    seen.push(JSON.parse(JSON.stringify(ctx)) as AgentContext);
    return value;
  } };
}

export const allow = { decision: 'allow' };
export const deny = (reason = 'no') => ({ decision: 'deny', reason });
export const escalate = (reason = 'needs_human') => ({ decision: 'deny', reason, approval: {} });
export const transform = (path: string, value: unknown) => ({ decision: 'transform', transform: { path, value } });

/** A resolver approving with `verdict`, echoing the identity, logging requests. */
export function approving(verdict: unknown = allow, log: unknown[] = []) {
  return (req: { context_identity: string | null }) => {
    log.push(JSON.parse(JSON.stringify(req)));
    return { outcome: 'approve', context_identity: req.context_identity, verdict };
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
