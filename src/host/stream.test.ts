// §12.1 stream assembly on a buffering host: the chunk shapes a framework adapter may deliver, beyond the text
// chunks of the CTK's mock streams (GRAMMAR.md §9.1).
import t from 'tap';
import { assembleStream, chunkToolCalls, isStream, STREAM_INCOMPLETE, type StreamChunk } from './stream.js';

async function* chunks(list: StreamChunk[]): AsyncGenerator<StreamChunk> {
  for (const c of list) yield c;
}

t.test('assembleStream: chunk shapes of a framework adapter (a single tool_call, a structured content chunk, a chunk after finish_reason)', async (t) => {
  const one = { id: 'c1', name: 'lookup', args: { q: 'x' } };
  const two = { id: 'c2', name: 'lookup', args: { q: 'y' } };
  t.same(chunkToolCalls({ tool_call: one, tool_calls: [two] }), [one, two], 'a single tool_call first, then the list');
  t.same(await assembleStream(chunks([{ content: 'Look' }, { tool_call: one }, { content: 'ing', tool_calls: [two], finish_reason: 'tool_calls' }])), {
    outcome: 'complete',
    response: { content: 'Looking', tool_calls: [one, two], finish_reason: 'tool_calls' },
  });
  t.same(await assembleStream(chunks([{ content: { answer: 42 } }, { finish_reason: 'stop' }])), {
    outcome: 'complete',
    response: { content: { answer: 42 }, tool_calls: [], finish_reason: 'stop' },
  }, 'a structured content chunk is the content');
  t.same(await assembleStream(chunks([{ content: 'no text here' }, { content: { k: 1 } }, { finish_reason: 'stop' }])), {
    outcome: 'complete',
    response: { content: { k: 1 }, tool_calls: [], finish_reason: 'stop' },
  }, 'structured content wins over text');
  t.same(await assembleStream(chunks([{ finish_reason: 'stop' }])), { outcome: 'complete', response: { content: null, tool_calls: [], finish_reason: 'stop' } }, 'no content at all: null');
  t.same(await assembleStream(chunks([{ content: 'a', finish_reason: 'stop' }, { content: 'b' }])), { outcome: 'errored', error: 'a chunk after finish_reason' });
  t.same(await assembleStream(chunks([{ content: 'a' }])), { outcome: 'incomplete', response: { content: 'a', tool_calls: [], finish_reason: STREAM_INCOMPLETE } });
  t.ok(isStream(chunks([])));
  t.notOk(isStream({ content: 'x' }));
  t.notOk(isStream(null));
});

t.test('assembleStream: a partial chunk never completes a stream, even one carrying finish_reason', async (t) => {
  t.same(await assembleStream(chunks([{ content: 'a' }, { content: 'b', finish_reason: 'stop', partial: true }])), {
    outcome: 'incomplete',
    response: { content: 'ab', tool_calls: [], finish_reason: STREAM_INCOMPLETE },
  });
  t.same(await assembleStream(chunks([{ content: 'a', finish_reason: 7 as unknown as string }])), {
    outcome: 'incomplete',
    response: { content: 'a', tool_calls: [], finish_reason: STREAM_INCOMPLETE },
  }, 'a finish_reason that is not a string is none');
  t.same(await assembleStream(chunks([{ content: 'a', partial: false }, { content: 'b', finish_reason: 'stop', partial: false }])), {
    outcome: 'complete',
    response: { content: 'ab', tool_calls: [], finish_reason: 'stop' },
  }, 'partial: false is a whole chunk');
});
