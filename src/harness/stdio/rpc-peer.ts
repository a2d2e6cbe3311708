// One end of a line-delimited JSON-RPC 2.0 connection, used by both the CTK-side client and the
// host-side server: sends requests and matches responses, dispatches the peer's requests to a
// handler, and reports every protocol violation by the other side instead of throwing.
import { LineSplitter } from './line-splitter.js';
import {
  MAX_LINE_BYTES,
  RPC_ERROR,
  RpcFault,
  classifyMessage,
  errorMessage,
  requestMessage,
  resultMessage,
  type RpcError,
  type RpcId,
} from './protocol.js';
import { parseWire, stringifyWire } from './wire-json.js';

/** The other side answered one of our requests with a JSON-RPC error. */
export class RemoteError extends Error {
  constructor(
    readonly method: string,
    readonly rpcError: RpcError,
  ) {
    super(`${method} failed on the other side (JSON-RPC error ${rpcError.code}): ${rpcError.message}`);
    this.name = 'RemoteError';
  }
}

export interface RpcPeerOptions {
  /** Writes one serialized message (without the newline). */
  write: (line: string) => void;
  /** Answers one request from the other side; throw RpcFault to answer with that error code. */
  handleRequest: (method: string, params: unknown) => Promise<unknown>;
  /** The other side broke the protocol; `problem` says how, in one sentence. */
  onViolation: (problem: string) => void;
  /** Every parsed incoming message, before it is classified (wire tracing). */
  onMessage?: (message: unknown) => void;
  /** Any well-formed message arrived (used for idle deadlines). */
  onActivity?: () => void;
  maxLineBytes?: number;
}

interface Pending {
  method: string;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export class RpcPeer {
  private nextId = 1;
  private readonly pending = new Map<RpcId, Pending>();
  private readonly splitter: LineSplitter;
  /** Requests from the other side still being answered. */
  private handling = 0;

  constructor(private readonly options: RpcPeerOptions) {
    const max = options.maxLineBytes ?? MAX_LINE_BYTES;
    this.splitter = new LineSplitter({
      maxLineBytes: max,
      onLine: (line) => this.onLine(line),
      onOverflow: (bytes) => options.onViolation(`it wrote a line longer than the ${max}-byte limit (${bytes} bytes so far, still no newline)`),
    });
  }

  /** Feed raw bytes from the other side. */
  feed(chunk: Buffer): void {
    this.splitter.push(chunk);
  }

  end(): void {
    this.splitter.end();
  }

  get busyHandling(): boolean {
    return this.handling > 0;
  }

  pendingMethods(): string[] {
    return [...this.pending.values()].map((p) => p.method);
  }

  request(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, resolve, reject });
      try {
        this.options.write(stringifyWire(requestMessage(id, method, params)));
      } catch (error) {
        this.pending.delete(id);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /** Rejects every outstanding request (e.g. the connection died). */
  rejectAll(makeError: (method: string) => Error): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) p.reject(makeError(p.method));
  }

  private send(message: Record<string, unknown>): void {
    try {
      this.options.write(stringifyWire(message));
    } catch (error) {
      // An unserializable answer is our bug; tell the other side instead of dying.
      const id = (message.id ?? null) as RpcId | null;
      try {
        this.options.write(stringifyWire(errorMessage(id, RPC_ERROR.internalError, `unserializable answer: ${String(error)}`)));
      } catch {
        // the connection is gone; nothing left to tell
      }
    }
  }

  private onLine(bytes: Buffer): void {
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      this.options.onViolation('it wrote a line that is not valid UTF-8');
      return;
    }
    if (text.trim() === '') return; // blank lines are tolerated
    let parsed: unknown;
    try {
      parsed = parseWire(text);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.options.onViolation(`it wrote a line that is not JSON (${why}): ${excerpt(text)}`);
      return;
    }
    this.options.onMessage?.(parsed);
    const msg = classifyMessage(parsed);
    switch (msg.kind) {
      case 'invalid':
        this.options.onViolation(`it wrote a line that is not JSON-RPC 2.0 (${msg.problem}): ${excerpt(text)}`);
        return;
      case 'notification':
        this.options.onViolation(`it sent a notification "${msg.method}", which the protocol does not define`);
        return;
      case 'result':
      case 'error': {
        const pending = msg.id === null ? undefined : this.pending.get(msg.id);
        if (!pending) {
          const detail = msg.kind === 'error' ? ` (error ${msg.error.code}: ${msg.error.message})` : '';
          this.options.onViolation(`it sent a response to id ${JSON.stringify(msg.id)}, which was never sent or was already answered${detail}`);
          return;
        }
        this.options.onActivity?.();
        this.pending.delete(msg.id as RpcId);
        if (msg.kind === 'result') pending.resolve(msg.result);
        else pending.reject(new RemoteError(pending.method, msg.error));
        return;
      }
      case 'request': {
        this.options.onActivity?.();
        this.handling++;
        Promise.resolve()
          .then(() => this.options.handleRequest(msg.method, msg.params))
          .then(
            (result) => this.send(resultMessage(msg.id, result)),
            (error: unknown) => {
              const code = error instanceof RpcFault ? error.code : RPC_ERROR.mockFailed;
              const message = error instanceof Error ? error.message : String(error);
              this.send(errorMessage(msg.id, code, message));
            },
          )
          .finally(() => {
            this.handling--;
            this.options.onActivity?.();
          });
        return;
      }
    }
  }
}

export function excerpt(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}
