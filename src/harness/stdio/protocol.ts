// The stdio harness protocol "agent-hooks-ctk/1" (HARNESS.md "The stdio protocol";
// schema/harness-protocol.schema.json): JSON-RPC 2.0, one message per line.
import { isPlainObject } from '../../core/json.js';

/** Requests the CTK sends to the host. */
export const CTK_METHODS = ['describe', 'setup', 'run', 'teardown'] as const;

/** Requests the host sends to the CTK while `run` is pending. */
export const HOST_METHODS = ['intercept', 'resolve', 'model', 'model_chunk', 'tool'] as const;
export type HostMethod = (typeof HOST_METHODS)[number];

/** Hard cap on one line in either direction (the CTK enforces it on host output). */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** JSON-RPC 2.0 error codes, plus the protocol's own. */
export const RPC_ERROR = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** The CTK's own mock (model script, tool behaviour) or scripted callback failed; not a host fault. */
  mockFailed: -32000,
  /** A host method rejected (e.g. `setup` of a surface part it does not support). */
  hostFailed: -32001,
} as const;

export type RpcId = string | number;

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

export type IncomingMessage =
  | { kind: 'request'; id: RpcId; method: string; params: unknown }
  | { kind: 'notification'; method: string; params: unknown }
  | { kind: 'result'; id: RpcId; result: unknown }
  | { kind: 'error'; id: RpcId | null; error: RpcError }
  | { kind: 'invalid'; problem: string };

function isId(v: unknown): v is RpcId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));
}

/** Classifies one parsed line as a JSON-RPC 2.0 message (or says why it is not one). */
export function classifyMessage(msg: unknown): IncomingMessage {
  if (!isPlainObject(msg)) return { kind: 'invalid', problem: 'the line is JSON but not a JSON-RPC 2.0 message object' };
  if (msg.jsonrpc !== '2.0') return { kind: 'invalid', problem: 'the message lacks "jsonrpc": "2.0"' };
  const hasMethod = 'method' in msg;
  const hasResult = 'result' in msg;
  const hasError = 'error' in msg;
  if (hasMethod) {
    if (typeof msg.method !== 'string') return { kind: 'invalid', problem: '"method" is not a string' };
    if (hasResult || hasError) return { kind: 'invalid', problem: 'a request carries "result" or "error"' };
    if (msg.params !== undefined && !isPlainObject(msg.params) && !Array.isArray(msg.params)) {
      return { kind: 'invalid', problem: `"params" of ${msg.method} is neither an object nor an array` };
    }
    if (!('id' in msg)) return { kind: 'notification', method: msg.method, params: msg.params };
    if (!isId(msg.id)) return { kind: 'invalid', problem: `request ${msg.method} has an id that is not a string or integer` };
    return { kind: 'request', id: msg.id, method: msg.method, params: msg.params };
  }
  if (hasResult === hasError) return { kind: 'invalid', problem: 'a response must carry exactly one of "result" and "error"' };
  if (hasResult) {
    if (!isId(msg.id)) return { kind: 'invalid', problem: 'a response has an id that is not a string or integer' };
    return { kind: 'result', id: msg.id, result: msg.result };
  }
  const err = msg.error;
  if (!isPlainObject(err) || typeof err.code !== 'number' || typeof err.message !== 'string') {
    return { kind: 'invalid', problem: 'an error response whose "error" is not {code: integer, message: string}' };
  }
  if (msg.id !== null && !isId(msg.id)) return { kind: 'invalid', problem: 'an error response has an invalid id' };
  return { kind: 'error', id: (msg.id ?? null) as RpcId | null, error: { code: err.code, message: err.message, data: err.data } };
}

export function requestMessage(id: RpcId, method: string, params: unknown): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method, params };
}

export function resultMessage(id: RpcId, result: unknown): Record<string, unknown> {
  return { jsonrpc: '2.0', id, result: result === undefined ? null : result };
}

export function errorMessage(id: RpcId | null, code: number, message: string): Record<string, unknown> {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** Thrown by a request handler to answer with a JSON-RPC error of this code. */
export class RpcFault extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'RpcFault';
  }
}
