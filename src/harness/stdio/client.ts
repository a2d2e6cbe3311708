// The CTK side of the stdio harness protocol (HARNESS.md "The stdio protocol"): drives a host
// subprocess through describe/setup/run/teardown and answers its intercept/resolve/model/tool
// requests from the RunSetup. Every host misbehaviour rejects the pending call with an Error that
// says what happened; the process is killed and a fresh one starts on the next call.
import { execa, type ResultPromise } from 'execa';
import { isModelStream, type Harness, type HostSurface, type ModelStreamChunk, type RunReport, type RunSetup } from '../contract.js';
import type { ApprovalRequest, JsonObject } from '../../core/types.js';
import { splitCommandLine } from './command-line.js';
import { LineSplitter } from './line-splitter.js';
import { HOST_METHODS, RPC_ERROR, RpcFault, type HostMethod } from './protocol.js';
import { RemoteError, RpcPeer } from './rpc-peer.js';
import { checkHostParams, checkRunReport, checkSurface } from './validate.js';
import { parseWire } from './wire-json.js';

export interface StdioHarnessOptions {
  /** The host's command line, split without a shell. */
  command: string;
  cwd?: string;
  /** Per-request deadline; on breach the process is killed and restarted. Default 30000. */
  timeoutMs?: number;
  /** Called with each stderr line of the host. */
  onLog?: (line: string) => void;
  /** Wire tracing: every message sent to or parsed from the host. */
  onMessage?: (direction: 'to-host' | 'from-host', message: unknown) => void;
  /** Line cap on host output (default 16 MiB); lowered only by tests. */
  maxLineBytes?: number;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
/**
 * On POSIX each host runs in its own process group, so stopping it stops everything it started: a host
 * launched through a wrapper (sh -c, npx, npm run) otherwise leaves its real process running, holding
 * the pipes, and the CTK waits on them forever.
 */
const GROUP_KILL = process.platform !== 'win32';
/**
 * Hosts still running when the CTK exits, or is interrupted (Ctrl-C, SIGTERM, a closed terminal), are
 * stopped with their groups: a detached group gets no terminal signal, and execa does not clean up detached children.
 */
const LIVE_GROUPS = new Set<number>();
const FATAL_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let exitHookInstalled = false;
function killLiveGroups(): void {
  for (const group of LIVE_GROUPS) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  LIVE_GROUPS.clear();
}
function onFatalSignal(signal: NodeJS.Signals): void {
  killLiveGroups();
  // Then die of the signal as if we had not listened.
  for (const s of FATAL_SIGNALS) process.off(s, onFatalSignal);
  process.kill(process.pid, signal);
}
function trackGroup(pid: number | undefined): void {
  if (!GROUP_KILL || pid === undefined) return;
  LIVE_GROUPS.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', killLiveGroups);
    for (const s of FATAL_SIGNALS) process.once(s, onFatalSignal);
  }
}
const STDERR_TAIL = 12;
const MAX_STDERR_LINE = 64 * 1024;
const MAX_LOG_LINES = 5000;

export function createStdioHarness(options: StdioHarnessOptions): Harness {
  return new StdioHarness(options);
}

/** Errors of this class mean the host misbehaved (the vector fails); the message is for the report. */
export class StdioHostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StdioHostError';
  }
}

/** The host command could not be started at all (no such program, not executable): bad input, not a host verdict. */
export class StdioStartError extends StdioHostError {
  constructor(message: string) {
    super(message);
    this.name = 'StdioStartError';
  }
}

class StdioHarness implements Harness {
  private readonly argv: string[];
  private readonly timeoutMs: number;
  private proc: HostProcess | null = null;
  private generation = 0;
  private current: RunSetup | null = null;
  private setupGeneration = -1;
  private runPending = false;
  private describeFailure: string | null = null;
  private log: string[] = [];
  /** Streamed model answers of the current run, by the id the host pulls them with (model_chunk). */
  private streams = new Map<string, AsyncIterator<ModelStreamChunk>>();

  constructor(private readonly options: StdioHarnessOptions) {
    this.argv = splitCommandLine(options.command);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async describe(): Promise<HostSurface> {
    const proc = this.ensureProcess();
    const result = await proc.call('describe', {});
    const checked = checkSurface(result);
    if (!checked.ok) {
      this.describeFailure = `the stdio host's describe answer is unusable: ${checked.problem}`;
      throw new StdioHostError(this.describeFailure);
    }
    this.describeFailure = null;
    proc.described = true;
    return checked.value;
  }

  async setup(run: RunSetup): Promise<void> {
    if (this.describeFailure) throw new StdioHostError(this.describeFailure);
    // A call of the previous vector still outstanding (the runner gave up on it): start clean.
    this.proc?.abandonIfBusy('the previous vector was abandoned by the runner while its host call was still pending');
    this.current = run;
    this.log = [];
    this.streams = new Map();
    const proc = await this.readyProcess();
    this.setupGeneration = proc.generation;
    await proc.call('setup', {
      vector_id: run.vector_id,
      scenario: run.scenario,
      mode: run.mode,
      composition: run.composition,
      identity_provider: run.identity_provider,
      interceptors: run.interceptors.map((i) => ({ index: i.index, name: i.name })),
      resolver: run.resolver !== null,
      redact_for_approval: run.redact_for_approval,
      ...(run.interceptor_timeout_ms === undefined ? {} : { interceptor_timeout_ms: run.interceptor_timeout_ms }),
      ...(run.resolver_timeout_ms === undefined ? {} : { resolver_timeout_ms: run.resolver_timeout_ms }),
    });
  }

  async run(): Promise<RunReport> {
    if (!this.current) throw new StdioHostError('run() called without setup()');
    const proc = this.proc;
    if (!proc || proc.generation !== this.setupGeneration) {
      throw new StdioHostError('the stdio host process was restarted after setup (it crashed or misbehaved earlier), so there is nothing to run');
    }
    this.runPending = true;
    try {
      const result = await proc.call('run', {});
      const checked = checkRunReport(result);
      if (!checked.ok) throw new StdioHostError(`the stdio host's run answer is unusable: ${checked.problem}`);
      const report = checked.value;
      return { ...report, log: [...(report.log ?? []), ...this.log] };
    } finally {
      this.runPending = false;
    }
  }

  async teardown(): Promise<void> {
    const proc = this.proc;
    const setupGen = this.setupGeneration;
    this.current = null;
    this.setupGeneration = -1;
    // A process that died since setup has nothing to tear down.
    if (!proc || proc.generation !== setupGen || proc.dead) return;
    // run still pending (the runner timed the vector out): stop the process rather than interleave.
    if (proc.abandonIfBusy('teardown was requested while a host call was still pending')) return;
    await proc.call('teardown', {});
  }

  async close(): Promise<void> {
    const proc = this.proc;
    this.proc = null;
    if (proc) await proc.shutdown();
  }

  /** The live process, spawning one if there is none. */
  private ensureProcess(): HostProcess {
    if (this.proc && !this.proc.dead) return this.proc;
    this.generation++;
    this.proc = new HostProcess({
      argv: this.argv,
      cwd: this.options.cwd,
      timeoutMs: this.timeoutMs,
      maxLineBytes: this.options.maxLineBytes,
      onMessage: this.options.onMessage,
      generation: this.generation,
      onStderr: (line) => {
        if (this.log.length < MAX_LOG_LINES) this.log.push(line);
        this.options.onLog?.(line);
      },
      handleRequest: (proc, method, params) => this.answerHost(proc, method, params),
    });
    return this.proc;
  }

  /** A live process that has answered describe with a matching protocol (a restarted one re-handshakes). */
  private async readyProcess(): Promise<HostProcess> {
    const proc = this.ensureProcess();
    if (!proc.described) await this.describe();
    return proc;
  }

  /** Answers one host → CTK request from the current RunSetup. */
  private async answerHost(proc: HostProcess, method: string, params: unknown): Promise<unknown> {
    if (!(HOST_METHODS as readonly string[]).includes(method)) {
      proc.violation(`it called method "${method}", which the protocol does not define (host → CTK methods: ${HOST_METHODS.join(', ')})`);
      throw new RpcFault(RPC_ERROR.methodNotFound, `method not found: ${method}`);
    }
    const run = this.current;
    if (!run || !this.runPending || proc.generation !== this.setupGeneration) {
      proc.violation(`it called "${method}" while no run was pending (host → CTK requests are only valid during run)`);
      throw new RpcFault(RPC_ERROR.invalidRequest, `"${method}" is only valid while run is pending`);
    }
    const problem = checkHostParams(method, params, run.interceptors.map((i) => i.index));
    if (problem) {
      proc.violation(`it called "${method}" with invalid params: ${problem}`);
      throw new RpcFault(RPC_ERROR.invalidParams, problem);
    }
    const p = params as JsonObject;
    switch (method as HostMethod) {
      case 'intercept': {
        const interceptor = run.interceptors.find((i) => i.index === p.index)!;
        return interceptor.decide(p.context as JsonObject);
      }
      case 'resolve':
        if (!run.resolver) {
          proc.violation('it called "resolve" but setup registered no resolver (resolver: false)');
          throw new RpcFault(RPC_ERROR.invalidParams, 'no resolver is registered for this vector');
        }
        return run.resolver.decide(p.request as unknown as ApprovalRequest);
      case 'model': {
        const reply = await run.model({ model_id: p.model_id as string, messages: p.messages! });
        if (!isModelStream(reply)) return reply;
        // A streamed answer: the host pulls it chunk by chunk with model_chunk, so the CTK sees how far it read.
        const id = `s${this.streams.size + 1}`;
        this.streams.set(id, reply[Symbol.asyncIterator]());
        return { stream: id };
      }
      case 'model_chunk': {
        const stream = this.streams.get(p.stream as string);
        if (!stream) {
          proc.violation(`it called "model_chunk" for stream ${JSON.stringify(p.stream)}, which no model answer of this run opened`);
          throw new RpcFault(RPC_ERROR.invalidParams, `no stream ${JSON.stringify(p.stream)} in this run`);
        }
        const next = await stream.next();
        return next.done ? null : next.value;
      }
      case 'tool':
        return run.tools({ id: p.id as string, name: p.name as string, args: p.args! });
    }
  }
}

interface HostProcessOptions {
  argv: string[];
  cwd?: string;
  timeoutMs: number;
  maxLineBytes?: number;
  onMessage?: (direction: 'to-host' | 'from-host', message: unknown) => void;
  generation: number;
  onStderr: (line: string) => void;
  handleRequest: (proc: HostProcess, method: string, params: unknown) => Promise<unknown>;
}

/** One spawned host. Once dead (exited, killed, or broke the protocol) it is never reused. */
class HostProcess {
  readonly generation: number;
  dead = false;
  /** Why the process was stopped, for a call that comes after. */
  deathReason: string | null = null;
  /** The process never started (spawn failed). */
  private startFailed = false;
  described = false;
  private readonly sub: ResultPromise;
  private readonly peer: RpcPeer;
  private readonly stderrTail: string[] = [];
  private watchdog: NodeJS.Timeout | null = null;
  private exited: Promise<void>;
  /** The direct child has exited (its pipes may still be held by processes it started). */
  private readonly childExited: Promise<void>;

  constructor(private readonly options: HostProcessOptions) {
    this.generation = options.generation;
    const [file, ...args] = options.argv as [string, ...string[]];
    this.sub = execa(file, args, {
      cwd: options.cwd,
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
      buffer: false,
      reject: false,
      cleanup: true,
      windowsHide: true,
      detached: GROUP_KILL,
    });
    trackGroup(this.sub.pid);
    this.childExited = new Promise<void>((resolve) => {
      this.sub.once('exit', () => resolve());
      this.sub.once('error', () => resolve());
    }).then(() => {
      if (this.sub.pid !== undefined) LIVE_GROUPS.delete(this.sub.pid);
    });
    this.peer = new RpcPeer({
      write: (line) => this.write(line),
      handleRequest: (method, params) => options.handleRequest(this, method, params),
      onViolation: (problem) => this.violation(problem),
      onActivity: () => this.arm(),
      onMessage: options.onMessage ? (m) => options.onMessage!('from-host', m) : undefined,
      maxLineBytes: options.maxLineBytes,
    });
    this.sub.stdout?.on('data', (chunk: Buffer | string) => {
      if (!this.dead) this.peer.feed(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    });
    this.sub.stdout?.on('end', () => {
      if (!this.dead) this.peer.end();
    });
    const stderr = new LineSplitter({
      maxLineBytes: MAX_STDERR_LINE,
      onLine: (line) => this.stderrLine(line.toString('utf8')),
      onOverflow: () => this.stderrLine(`[agent-hooks-ctk] (a stderr line longer than ${MAX_STDERR_LINE} bytes was dropped)`),
    });
    this.sub.stderr?.on('data', (chunk: Buffer | string) => stderr.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
    this.sub.stderr?.on('end', () => stderr.end());
    this.sub.stdin?.on('error', () => {
      // EPIPE after the host died: the exit handler reports it.
    });
    this.exited = this.sub.then(
      (result) => this.onExit(result),
      (error: unknown) => this.onExit({ failed: true, message: String(error) }),
    );
  }

  /** Sends one request and waits for its answer (or for the host to misbehave). */
  async call(method: string, params: unknown): Promise<unknown> {
    if (this.dead) {
      const why = this.deathReason ?? `the stdio host process is not running (cannot send "${method}")`;
      throw this.startFailed ? new StdioStartError(why) : new StdioHostError(why);
    }
    const answer = this.peer.request(method, params);
    this.arm();
    try {
      return await answer;
    } catch (error) {
      if (error instanceof RemoteError) {
        throw new StdioHostError(`the stdio host answered "${method}" with JSON-RPC error ${error.rpcError.code}: ${error.rpcError.message}`);
      }
      throw error;
    } finally {
      this.arm();
    }
  }

  /** The host broke the protocol: fail whatever is pending with `problem`, stop the process. */
  violation(problem: string): void {
    const pending = this.peer.pendingMethods();
    const during = pending.length > 0 ? `while "${pending[0]}" was pending` : 'between requests';
    this.kill(`stdio host protocol violation ${during}: ${problem}. The host process was stopped; the next vector starts a fresh one.`);
  }

  /** Kills the process if a request is outstanding; true when it did. */
  abandonIfBusy(why: string): boolean {
    if (this.dead || this.peer.pendingMethods().length === 0) return false;
    this.kill(`${why}; the host process was stopped and a fresh one is started`);
    return true;
  }

  async shutdown(): Promise<void> {
    // Waiting for the exit must keep the CTK alive (idle handles are unref'd, see hold()).
    this.hold(true);
    if (!this.dead) {
      this.dead = true;
      this.disarm();
      this.sub.stdin?.end();
      // A host that does not exit on end of input within 2 s is stopped, with everything it started.
      const timer = setTimeout(() => this.killTree(), 2000);
      await this.childExited;
      clearTimeout(timer);
    }
    await this.release();
  }

  /** SIGKILL to the host's process group (POSIX), else to the direct child. */
  private killTree(): void {
    const pid = this.sub.pid;
    if (GROUP_KILL && pid !== undefined) {
      try {
        process.kill(-pid, 'SIGKILL');
        return;
      } catch {
        // the group is gone already; fall through to the child
      }
    }
    this.sub.kill('SIGKILL');
  }

  /**
   * After the child exited: let its output drain briefly, then close our ends of the pipes so a
   * process that escaped the group (a daemonising grandchild) cannot keep the CTK alive.
   */
  private async release(): Promise<void> {
    this.hold(true);
    await this.childExited;
    this.killTree(); // anything left in the group
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, 500)))]);
    clearTimeout(timer);
    for (const stream of [this.sub.stdin, this.sub.stdout, this.sub.stderr]) stream?.destroy();
    this.hold(false);
  }

  private write(line: string): void {
    if (this.dead) return; // answers to a host we already stopped go nowhere
    this.options.onMessage?.('to-host', parseWire(line));
    this.sub.stdin?.write(line + '\n');
  }

  private stderrLine(line: string): void {
    this.stderrTail.push(line);
    if (this.stderrTail.length > STDERR_TAIL) this.stderrTail.shift();
    this.options.onStderr(line);
  }

  private tail(): string {
    return this.stderrTail.length === 0 ? 'no stderr output' : `last stderr lines:\n  ${this.stderrTail.join('\n  ')}`;
  }

  /**
   * While a request is outstanding the process keeps the CTK's event loop alive; when idle it does not,
   * so a caller that forgets close() cannot hang the CTK on exit (execa's cleanup then kills the host).
   */
  private hold(busy: boolean): void {
    for (const handle of [this.sub, this.sub.stdin, this.sub.stdout, this.sub.stderr] as Array<{ ref?: () => void; unref?: () => void } | null>) {
      if (busy) handle?.ref?.();
      else handle?.unref?.();
    }
  }

  /** Idle deadline: restarts on every message from the host; paused while the CTK is answering the host. */
  private arm(): void {
    this.disarm();
    const busy = !this.dead && this.peer.pendingMethods().length > 0;
    this.hold(busy);
    if (!busy) return;
    this.watchdog = setTimeout(() => {
      if (this.peer.busyHandling) return this.arm();
      const method = this.peer.pendingMethods()[0] ?? 'a request';
      this.kill(
        `the stdio host did not answer "${method}" within ${this.options.timeoutMs} ms (it wrote nothing for ${this.options.timeoutMs} ms); ` +
          `the process was killed and the next vector starts a fresh one (${this.tail()})`,
      );
    }, this.options.timeoutMs);
    this.watchdog.unref?.();
  }

  private disarm(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
  }

  private kill(message: string): void {
    if (this.dead) return;
    this.dead = true;
    this.deathReason = message;
    this.disarm();
    this.killTree();
    void this.release();
    // Nothing pending: keep the message in the log so the misbehaviour is not lost.
    if (this.peer.pendingMethods().length === 0) this.options.onStderr(`[agent-hooks-ctk] ${message}`);
    this.peer.rejectAll(() => new StdioHostError(message));
  }

  private onExit(result: { exitCode?: number; signal?: string; failed?: boolean; message?: string; originalMessage?: string }): void {
    if (this.dead) return;
    this.dead = true;
    this.disarm();
    const pending = this.peer.pendingMethods();
    if (result.exitCode === undefined && result.signal === undefined) {
      const why = (result.originalMessage || result.message || 'unknown spawn error').split('\n').pop();
      const message =
        `the stdio host process could not be started (${why}); command: ${JSON.stringify(this.options.argv)}. ` +
        'Check the command line and that the program is installed and on PATH.';
      this.deathReason = message;
      this.startFailed = true;
      this.peer.rejectAll(() => new StdioStartError(message));
      return;
    }
    const how = result.signal ? `was killed by signal ${result.signal}` : `exited with code ${result.exitCode}`;
    const during = pending.length > 0 ? `while "${pending[0]}" was pending` : 'between requests';
    this.deathReason = `the stdio host process ${how} ${during}; ${this.tail()}`;
    this.peer.rejectAll(() => new StdioHostError(this.deathReason!));
  }
}
