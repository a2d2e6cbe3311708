// §12.1 "Exception — incremental mediation" on the reference loop (streamMediation: "incremental"): one
// post_model_call per closed chunk, release under the covering verdict, a deny ends the stream, the residue fails
// closed, nothing withheld is persisted; §12.1a: the released content is the verdicted content.
import t from 'tap';
import { HOST_ERROR, type AgentContext, type JsonObject } from '../core/index.js';
import { createAgentLoop, type LoopModelResponse } from './loop.js';
import { INCREMENTAL_FINISH } from './incremental.js';
import { STREAM_INCOMPLETE, type StreamChunk } from './stream.js';
import { allow, emitterWith } from './fixtures.test.util.js';
import type { EmitterOptions } from './options.js';

type Verdicts = (ctx: AgentContext) => unknown;

/** A chunked mock stream that counts what the host pulled. */
function chunked(chunks: StreamChunk[]) {
  const pulled = { n: 0, returned: false };
  const stream: AsyncIterable<StreamChunk> = {
    [Symbol.asyncIterator]() {
      let i = 0;
      return {
        async next() {
          if (i >= chunks.length) return { done: true, value: undefined };
          pulled.n++;
          return { done: false, value: chunks[i++]! };
        },
        async return() {
          pulled.returned = true;
          return { done: true, value: undefined };
        },
      };
    },
  };
  return { stream, pulled };
}

function run(verdicts: Verdicts, script: Array<AsyncIterable<StreamChunk> | LoopModelResponse>, options: Partial<EmitterOptions> = {}) {
  const seen: AgentContext[] = [];
  const released: string[] = [];
  const emitter = emitterWith(
    [
      {
        name: 'segments',
        intercept(ctx) {
          seen.push(JSON.parse(JSON.stringify(ctx)) as AgentContext);
          return verdicts(ctx) ?? allow;
        },
      },
    ],
    options,
  );
  let n = 0;
  const loop = createAgentLoop({
    emitter,
    model: async () => script[n++]!,
    tools: { names: ['lookup'], invoke: async () => ({ value: 'LEDGER-ENTRY-77', is_error: false }) },
    streamMediation: 'incremental',
    onRelease: (text) => released.push(text),
  });
  const posts = () => seen.filter((c) => c.interception_point === 'post_model_call').map((c) => c.response as JsonObject);
  return { loop, seen, released, posts, emitter };
}

const content = (ctx: AgentContext) => ((ctx.response ?? {}) as JsonObject).content;
const at = (point: string, pred: (ctx: AgentContext) => boolean, verdict: unknown): Verdicts => (ctx) =>
  ctx.interception_point === point && pred(ctx) ? verdict : undefined;

t.test('one post_model_call per chunk over the assembled prefix; finish_reason "incremental" until the last', async (t) => {
  const { stream, pulled } = chunked([{ content: 'Refund ' }, { content: 'issued ' }, { content: 'today.', finish_reason: 'stop' }]);
  const r = run(() => undefined, [stream]);
  const result = await r.loop.run([{ content: 'status?', role: 'user' }]);
  t.same(r.posts(), [
    { content: 'Refund ', tool_calls: [], finish_reason: INCREMENTAL_FINISH },
    { content: 'Refund issued ', tool_calls: [], finish_reason: INCREMENTAL_FINISH },
    { content: 'Refund issued today.', tool_calls: [], finish_reason: 'stop' },
  ]);
  t.same(r.released, ['Refund ', 'issued ', 'today.'], 'each segment released after its verdict; the output step releases nothing twice');
  t.equal(result.released_output, 'Refund issued today.');
  t.equal(result.final_output, 'Refund issued today.');
  t.equal(pulled.n, 3);
});

t.test('rule 1: a segment is released only after the emission covering it permits', async (t) => {
  const order: string[] = [];
  const { stream } = chunked([{ content: 'one ' }, { content: 'two', finish_reason: 'stop' }]);
  const seen: string[] = [];
  const emitter = emitterWith([{ intercept: (ctx) => (ctx.interception_point === 'post_model_call' && order.push(`verdict:${String(content(ctx))}`), allow) }]);
  const loop = createAgentLoop({ emitter, model: async () => stream, tools: { names: [], invoke: () => ({ value: null, is_error: false }) }, streamMediation: 'incremental', onRelease: (x) => (order.push(`release:${x}`), seen.push(x)) });
  await loop.run([{ content: 'go', role: 'user' }]);
  t.same(order, ['verdict:one ', 'release:one ', 'verdict:one two', 'release:two']);
});

t.test('rule 2: a deny ends the stream: no further chunk is pulled, nothing more released, the run is blocked', async (t) => {
  const { stream, pulled } = chunked([{ content: 'Account ' }, { content: 'IBAN-SECRET ' }, { content: 'closed.', finish_reason: 'stop' }]);
  const r = run(at('post_model_call', (c) => String(content(c)).includes('SECRET'), { decision: 'deny', reason: 'probe:leak' }), [stream]);
  const result = await r.loop.run([{ content: 'status?', role: 'user' }]);
  t.equal(r.posts().length, 2);
  t.equal(pulled.n, 2, 'the third chunk was never consumed');
  t.ok(pulled.returned, 'the stream was closed');
  t.equal(result.released_output, 'Account ');
  t.equal(result.outcome, 'blocked');
  t.equal(result.final_output, null);
  t.notOk(r.seen.some((c) => c.interception_point === 'output'));
  t.notMatch(JSON.stringify(result.persisted), /SECRET|closed|Account/, 'rule 4: nothing of the terminated response is persisted');
});

t.test('rule 3: a stream that dies mid-chunk: the residue is never emitted as a segment; one stream_incomplete self-deny', async (t) => {
  const { stream } = chunked([{ content: 'Refund ' }, { content: 'iss', partial: true }]);
  const r = run(() => undefined, [stream]);
  const result = await r.loop.run([{ content: 'status?', role: 'user' }]);
  t.same(r.posts(), [
    { content: 'Refund ', tool_calls: [], finish_reason: INCREMENTAL_FINISH },
    { content: 'Refund iss', tool_calls: [], finish_reason: STREAM_INCOMPLETE },
  ]);
  const recs = r.emitter.records().filter((x) => x.interception_point === 'post_model_call');
  t.equal(recs[1]!.verdict.reason, HOST_ERROR.streaming_unsupported);
  t.equal(recs[1]!.decided_by, null);
  t.equal(result.released_output, 'Refund ', 'the covered segment went out; the residue did not');
  t.equal(result.outcome, 'blocked');
  t.notMatch(JSON.stringify(result.persisted), /iss/);
});

t.test('rule 3: a stream that ends at a chunk boundary without its finish_reason still fails closed', async (t) => {
  const { stream } = chunked([{ content: 'Refund ' }, { content: 'issued' }]);
  const r = run(() => undefined, [stream]);
  const result = await r.loop.run([{ content: 'status?', role: 'user' }]);
  t.same(r.posts().map((p) => p.finish_reason), [INCREMENTAL_FINISH, INCREMENTAL_FINISH, STREAM_INCOMPLETE]);
  t.equal(result.outcome, 'blocked');
  t.equal(result.released_output, 'Refund issued');
});

t.test('§12.1a: a transform at a segment: the verdicted text is released, and the next segment builds on it', async (t) => {
  const { stream } = chunked([{ content: 'Card 4111-1111 ' }, { content: 'charged.', finish_reason: 'stop' }]);
  const r = run(at('post_model_call', (c) => content(c) === 'Card 4111-1111 ', { decision: 'transform', transform: { path: '$target.content', value: 'Card [card] ' } }), [stream]);
  const result = await r.loop.run([{ content: 'status?', role: 'user' }]);
  t.same(r.posts().map((p) => p.content), ['Card 4111-1111 ', 'Card [card] charged.']);
  t.equal(result.released_output, 'Card [card] charged.');
  t.equal(result.final_output, 'Card [card] charged.');
  t.notMatch(JSON.stringify(result.persisted), /4111/);
});

t.test('§12.1a: a verdict that rewrites already-released text cannot be released as verdicted: the stream fails closed', async (t) => {
  const { stream } = chunked([{ content: 'Hello ' }, { content: 'world', finish_reason: 'stop' }]);
  const r = run(at('post_model_call', (c) => content(c) === 'Hello world', { decision: 'transform', transform: { path: '$target.content', value: 'Bye world' } }), [stream]);
  const result = await r.loop.run([{ content: 'hi', role: 'user' }]);
  t.equal(result.released_output, 'Hello ', 'nothing past the rewrite was released');
  t.equal(result.outcome, 'blocked');
  const last = r.emitter.records().filter((x) => x.interception_point === 'post_model_call').at(-1)!;
  t.equal(last.verdict.reason, HOST_ERROR.streaming_unsupported);
});

t.test('evaluate_only: a segment deny is recorded but the stream goes on', async (t) => {
  const { stream, pulled } = chunked([{ content: 'a ' }, { content: 'b', finish_reason: 'stop' }]);
  const r = run(at('post_model_call', () => true, { decision: 'deny', reason: 'probe:no' }), [stream], { mode: 'evaluate_only' });
  const result = await r.loop.run([{ content: 'hi', role: 'user' }]);
  t.equal(pulled.n, 2);
  t.equal(result.released_output, 'a b');
  t.equal(result.outcome, 'completed');
});

t.test('a streamed tool-call response: text released as it streams, tool calls act on the final segment', async (t) => {
  const { stream } = chunked([{ content: 'Looking ' }, { content: 'it up.', finish_reason: 'tool_calls', tool_calls: [{ id: 'c1', name: 'lookup', args: { q: 'x' } }] }]);
  const r = run(() => undefined, [stream, { content: 'Done.', tool_calls: [], finish_reason: 'stop' }]);
  const result = await r.loop.run([{ content: 'hi', role: 'user' }]);
  t.same(r.posts()[1], { content: 'Looking it up.', tool_calls: [{ id: 'c1', name: 'lookup', args: { q: 'x' } }], finish_reason: 'tool_calls' });
  t.ok(r.seen.some((c) => c.interception_point === 'pre_tool_call'));
  t.equal(result.released_output, 'Looking it up.Done.', 'the plain final answer is released once its output verdict permits');
});

t.test('an output deny after a fully streamed answer cannot retract it (buffered_output: false)', async (t) => {
  const { stream } = chunked([{ content: 'all ' }, { content: 'out', finish_reason: 'stop' }]);
  const r = run(at('output', () => true, { decision: 'deny', reason: 'probe:late' }), [stream]);
  const result = await r.loop.run([{ content: 'hi', role: 'user' }]);
  t.equal(result.released_output, 'all out');
  t.equal(result.final_output, null);
  t.equal(result.outcome, 'blocked');
});

t.test('a provider failure mid-stream is an errored model call; released segments stay released', async (t) => {
  const failing: AsyncIterable<StreamChunk> = {
    async *[Symbol.asyncIterator]() {
      yield { content: 'first ' };
      throw new TypeError('socket');
    },
  };
  const r = run(() => undefined, [failing]);
  const result = await r.loop.run([{ content: 'hi', role: 'user' }]);
  t.equal(result.outcome, 'error');
  t.equal(r.posts().length, 1, 'no extra errored-call emission: the call already has its post_model_call');
  t.equal(result.released_output, 'first ');
});

t.test('seams: a segmentRelease override past non-text verdicted content, a residue override, chunks without content or with structured content', async (t) => {
  // segmentRelease overridden to release raw chunks: a segment transformed to non-text content leaves the raw text held.
  const raw = chunked([{ content: 'a' }, { content: 'b', finish_reason: 'stop' }]);
  const seen: AgentContext[] = [];
  const emitter = emitterWith(
    [{ name: 'x', intercept: (ctx: AgentContext) => (seen.push(JSON.parse(JSON.stringify(ctx)) as AgentContext), ctx.interception_point === 'post_model_call' && content(ctx) === 'a' ? { decision: 'transform', transform: { path: '$target.content', value: { x: 1 } } } : allow) }],
    { parts: { segmentRelease: (s) => s.chunk } },
  );
  const loop = createAgentLoop({ emitter, model: async () => raw.stream, tools: { names: [], invoke: async () => ({ value: null, is_error: false }) }, streamMediation: 'incremental' });
  await loop.run([{ content: 'hi', role: 'user' }]);
  t.same(seen.filter((c) => c.interception_point === 'post_model_call').map(content), ['a', 'ab'], 'the next segment builds on the raw text held, not on the non-text verdict');
  // residueFailsClosed overridden: a stream that ends without its finish_reason closes its last segment as "stop".
  const cut = chunked([{ content: 'half ' }, { content: 'way', partial: true }]);
  const r = run(() => undefined, [cut.stream], { parts: { residueFailsClosed: () => false } });
  const out = await r.loop.run([{ content: 'hi', role: 'user' }]);
  t.same(r.posts().map((p) => [p.content, p.finish_reason]), [['half ', INCREMENTAL_FINISH], ['half way', 'stop']]);
  t.equal(out.final_output, 'half way');
  // A finish-only last chunk adds no text; a structured chunk cannot be mediated incrementally and fails closed.
  const finishOnly = run(() => undefined, [chunked([{ content: 'done' }, { finish_reason: 'stop' }]).stream]);
  t.equal((await finishOnly.loop.run([{ content: 'hi', role: 'user' }])).final_output, 'done');
  t.same(finishOnly.posts().map((p) => p.content), ['done', 'done']);
  const structured = run(() => undefined, [chunked([{ content: 'text ' }, { content: { k: 1 }, finish_reason: 'stop' }]).stream]);
  const sr = await structured.loop.run([{ content: 'hi', role: 'user' }]);
  t.equal(sr.outcome, 'blocked');
  t.same(structured.posts().at(-1), { content: 'text ', tool_calls: [], finish_reason: STREAM_INCOMPLETE });
  t.equal(structured.emitter.records().at(-2)!.verdict.reason, HOST_ERROR.streaming_unsupported);
});
