// §12.1 "Exception — incremental mediation" (for a host declaring buffered_output: false and incremental_output):
// a streamed model response is evaluated segment by segment, one post_model_call per closed chunk, under the
// four accounting rules, with exposure bound "none": release is watermark-gated.
//   1. nothing reaches the caller ahead of the verdict covering it (a segment is released after its emission);
//   2. a deny terminates the stream: nothing more is consumed, nothing not yet released is released;
//   3. delivered content no emission evaluated (the residue of a stream that died) fails closed at end of stream
//      with host_error:streaming_unsupported;
//   4. nothing withheld or unevaluated is persisted (the loop incorporates only a completed, permitted response).
// §12.1a: what is released is the verdicted content — a transform's value, never the raw chunk.
import { HOST_ERROR, type JsonObject } from '../core/index.js';
import { errorTypeName } from './identity-providers.js';
import { mergeLabels } from './labels.js';
import { chunkToolCalls, STREAM_INCOMPLETE, type StreamChunk } from './stream.js';
import type { ToolCall } from '../core/agent-io.js';
import type { Emission, LabelSet } from './types.js';

/** response.finish_reason of every segment but the last (GRAMMAR.md §9.2). */
export const INCREMENTAL_FINISH = 'incremental';

/** The exposure bound this discipline enforces (§12.1a: stated in the declaration). */
export const WATERMARK_EXPOSURE_BOUND = 'none: release is watermark-gated';

/** What segmentRelease is told about one segment's emission. */
export interface SegmentOutcome {
  post: Emission;
  /** Everything released from this response so far. */
  released: string;
  /** The raw text this segment added (what the chunk delivered). */
  chunk: string;
}

export type Mediation =
  /** Every segment ran and the last one carried the finish_reason; `post` is the last segment's emission. */
  | { outcome: 'complete'; post: Emission; labels: LabelSet }
  /** A deny (or a verdict that cannot be released as verdicted, or an unevaluated residue) ended the stream. */
  | { outcome: 'terminated'; assembled: string }
  /** The provider failed mid-stream: an errored model call (§12.1); `segments` emissions had already been made. */
  | { outcome: 'errored'; error: string; segments: number };

/** The obligation-bearing steps of incremental mediation: part of the HostParts seam (parts.ts) the mutants replace. */
export interface IncrementalParts {
  /** Rule 1 / §12.1a: the text a segment's verdict releases now ('' under a deny; null: not releasable as verdicted). */
  segmentRelease(s: SegmentOutcome): string | null;
  /** Rule 2: does the stream go on after this segment (a deny terminates it: nothing more is consumed)? */
  streamGoesOn(post: Emission): boolean;
  /** Rule 3: a stream that ended without its finish_reason fails closed (streaming_unsupported), whatever it left unevaluated. */
  residueFailsClosed(residue: string): boolean;
}

export interface MediationDeps {
  parts: IncrementalParts;
  /** Emits one post_model_call over `response`; `selfDeny` is a host self-verdict (§12.1). */
  emitSegment(response: JsonObject, selfDeny?: string): Promise<Emission>;
  /** Hands verdicted text to the caller, in order. */
  release(text: string): void;
}

/** Consumes the stream chunk by chunk; never pulls a chunk past a deny (rule 2). */
export async function mediateIncrementally(stream: AsyncIterable<StreamChunk>, deps: MediationDeps): Promise<Mediation> {
  const { parts } = deps;
  const it = stream[Symbol.asyncIterator]();
  let held = ''; // the verdicted prefix: every closed segment as its covering verdict left it
  let released = '';
  let pending = ''; // delivered text no emission has covered yet
  const toolCalls: ToolCall[] = [];
  const labels: LabelSet[] = [];
  let segments = 0;
  // Stryker disable BlockStatement,OptionalChaining: closing an abandoned stream is hygiene no CTK observation sees (the mock counts what is pulled, and nothing is pulled after a deny either way); incremental.test.ts 'rule 2: a deny ends the stream: no further chunk is pulled, nothing more released, the run is blocked' checks it
  const stop = async (): Promise<void> => {
    try {
      await it.return?.();
    } catch {
      // the stream is abandoned either way
    }
  };
  // Stryker restore BlockStatement,OptionalChaining
  /** Rules 3 and 4 share this ending: one post_model_call with stream_incomplete and the self-deny (§12.1). */
  const failClosed = async (): Promise<Mediation> => {
    await stop();
    await deps.emitSegment({ content: held + pending, tool_calls: [], finish_reason: STREAM_INCOMPLETE }, HOST_ERROR.streaming_unsupported);
    // Stryker disable next-line ArithmeticOperator: what a terminated mediation assembled is read only by incorporateTerminatedStream, which by default keeps nothing (rule 4); only a HostParts override reads it (loop.test.ts 'rule 4 seam: what an override keeps of a terminated stream enters the persisted history as an assistant message')
    return { outcome: 'terminated', assembled: held + pending };
  };
  /** One segment: its emission, then release under its verdict (rule 1, §12.1a). */
  const closeSegment = async (finish: string | undefined): Promise<Mediation | undefined> => {
    const chunk = pending;
    // Stryker equivalent next-line ConditionalExpression `false` @71-91: the CTK's mock delivers a stream's tool calls on its last chunk only (GRAMMAR.md §9.1), so no earlier segment has any to show (incremental.test.ts 'a streamed tool-call response: text released as it streams, tool calls act on the final segment')
    const response: JsonObject = { content: held + chunk, tool_calls: finish === undefined ? [] : (toolCalls as unknown as JsonObject[]), finish_reason: finish ?? INCREMENTAL_FINISH };
    const post = await deps.emitSegment(response);
    // Stryker disable next-line UpdateOperator: equivalent: the count is read only as zero or not (has the failed call had an emission?), and counting down is as non-zero after a segment as counting up (AH-CTK-773, 774 pin both cases; incremental.test.ts 'a provider failure mid-stream is an errored model call; released segments stay released')
    segments++;
    const text = parts.segmentRelease({ post, released, chunk });
    // A verdict that rewrote already-released text cannot be released as verdicted: fail closed (§12.1a, §11).
    if (text === null) return failClosed();
    // Stryker equivalent next-line ConditionalExpression `true` @9-24: releasing the empty text releases nothing
    // Stryker equivalent next-line EqualityOperator `text.length >= 0` @9-24: releasing the empty text releases nothing
    if (text.length > 0) {
      deps.release(text);
      released += text;
    }
    if (!parts.streamGoesOn(post)) {
      await stop();
      // Stryker disable next-line ArithmeticOperator: what a terminated mediation assembled is read only by incorporateTerminatedStream, which by default keeps nothing (rule 4); only a HostParts override reads it (loop.test.ts 'rule 4 seam: what an override keeps of a terminated stream enters the persisted history as an assistant message')
      return { outcome: 'terminated', assembled: held + chunk };
    }
    labels.push(post.labels);
    // Stryker disable next-line OptionalChaining: a permitted segment's target is its response object, never null
    const content = (post.target as JsonObject | null)?.content;
    // Stryker disable next-line ArithmeticOperator: with the default parts a permitted segment whose verdicted content is not text never gets here (segmentRelease fails it closed); only a HostParts override (the selftest seam) does (incremental.test.ts 'seams: a segmentRelease override past non-text verdicted content, a residue override, chunks without content or with structured content')
    // Stryker equivalent next-line ConditionalExpression `true` @12-39: with the default parts a permitted segment whose verdicted content is not text never gets here (segmentRelease fails it closed); only a HostParts override (the selftest seam) does (incremental.test.ts 'seams: a segmentRelease override past non-text verdicted content, a residue override, chunks without content or with structured content')
    held = typeof content === 'string' ? content : held + chunk;
    pending = '';
    // Stryker disable next-line StringLiteral: the loop tells mediations apart by 'errored' and 'terminated' only, so any other outcome name reads as complete
    return finish === undefined ? undefined : { outcome: 'complete', post, labels: mergeLabels(...labels) };
  };

  for (;;) {
    let next: IteratorResult<StreamChunk>;
    try {
      next = await it.next();
    } catch (error) {
      return { outcome: 'errored', error: errorTypeName(error), segments };
    }
    if (next.done) break;
    const chunk: StreamChunk = next.value ?? {};
    // Structured (non-text) content has no prefix to release: this host cannot mediate it incrementally.
    // Stryker disable next-line BlockStatement: the CTK's mock streams text chunks only (GRAMMAR.md §9.1), so a structured chunk never reaches a CTK run (incremental.test.ts 'seams: …')
    // Stryker equivalent next-line ConditionalExpression `false` @9-73: the CTK's mock streams text chunks only (GRAMMAR.md §9.1), so a structured chunk never reaches a CTK run (incremental.test.ts 'seams: …')
    // Stryker equivalent next-line ConditionalExpression `true` @9-36: the CTK's mock streams text chunks only (GRAMMAR.md §9.1), so a structured chunk never reaches a CTK run (incremental.test.ts 'seams: …')
    // Stryker equivalent next-line EqualityOperator `chunk.content === undefined` @9-36: the CTK's mock streams text chunks only (GRAMMAR.md §9.1), so a structured chunk never reaches a CTK run (incremental.test.ts 'seams: …')
    if (chunk.content !== undefined && typeof chunk.content !== 'string') {
      return failClosed();
    }
    // Stryker disable next-line StringLiteral: every chunk of the CTK's mock streams carries text (GRAMMAR.md §9.1); a chunk without content (a tool-call or finish-only chunk of a framework adapter) adds nothing (incremental.test.ts 'seams: …')
    pending += chunk.content ?? '';
    toolCalls.push(...chunkToolCalls(chunk));
    if (chunk.partial === true) continue; // no boundary: no emission covers it (yet)
    // Stryker equivalent next-line ConditionalExpression `true` @20-59: the CTK's mock puts a string finish_reason on the last chunk and none on the others, so taking the member as it is changes nothing (stream.test.ts 'assembleStream: a partial chunk never completes a stream, even one carrying finish_reason')
    const finish = typeof chunk.finish_reason === 'string' ? chunk.finish_reason : undefined;
    const done = await closeSegment(finish);
    if (done) return done;
  }
  // The stream ended without its finish_reason: rule 3 for whatever no emission evaluated.
  // Stryker equivalent next-line ConditionalExpression `true` @7-40: the default residueFailsClosed is always true; only an override decides otherwise (incremental.test.ts 'seams: …')
  if (parts.residueFailsClosed(pending)) return failClosed();
  // Only a HostParts override that lets the residue through gets here: the last segment closes as "stop" (closeSegment
  // with a finish_reason always ends the mediation).
  return (await closeSegment('stop'))!;
}

/**
 * Rule 1 and §12.1a: the text a segment's verdict lets the host release now — nothing under a deny; under a permit
 * the verdicted content past what was already released. null when the verdicted content does not extend what was
 * released (a transform rewrote released text, or made the content non-text): it cannot be released as verdicted.
 */
export function segmentRelease(s: SegmentOutcome): string | null {
  if (!s.post.proceed) return '';
  // Stryker disable next-line OptionalChaining: a permitted segment's target is its response object, never null
  const content = (s.post.target as JsonObject | null)?.content;
  if (typeof content !== 'string' || !content.startsWith(s.released)) return null;
  return content.slice(s.released.length);
}
