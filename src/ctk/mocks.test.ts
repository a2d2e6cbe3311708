// The mock tools' §12.2 probe (GRAMMAR.md §2, `rendezvous`): invocations in flight together all return; one that
// waits in vain returns after its bounded wait and logs why, so a serial host fails with a message that says so.
import t from 'tap';
import { createMockTools, newMockLog, nonJsonVerdict, unprojectable } from './mocks.js';
import { findNonJson } from '../core/verdict-gate.js';
import { NON_JSON_VERDICT_KINDS } from '../harness/contract.js';
import type { Scenario } from '../harness/contract.js';

const scenario = (within_ms: number): Scenario => ({
  tools: [
    { name: 'a', behavior: [{ return: 'from-a', rendezvous: { group: 'g', parties: 2, within_ms } }] },
    { name: 'b', behavior: [{ return: 'from-b', rendezvous: { group: 'g', parties: 2, within_ms } }] },
  ],
  parallel_tools: true,
});

t.test('invocations of one group in flight together return together, and nothing is logged', async (t) => {
  const log = newMockLog();
  const tools = createMockTools(scenario(5_000), log);
  const started = Date.now();
  const results = await Promise.all([tools({ id: 'c1', name: 'a', args: {} }), tools({ id: 'c2', name: 'b', args: {} })]);
  t.same(results.map((r) => r.value), ['from-a', 'from-b']);
  t.ok(Date.now() - started < 5_000, 'neither waited out its bound');
  t.same(log.rendezvous, []);
  // The group gathers afresh for the next batch.
  await Promise.all([tools({ id: 'c3', name: 'b', args: {} }), tools({ id: 'c4', name: 'a', args: {} })]);
  t.same(log.rendezvous, []);
  t.equal(log.tool_invocations.length, 4);
});

t.test('invocations one after another each wait out the bound, return anyway, and say the host ran them serially', async (t) => {
  const log = newMockLog();
  const tools = createMockTools(scenario(30), log);
  t.equal((await tools({ id: 'c1', name: 'a', args: {} })).value, 'from-a');
  t.equal((await tools({ id: 'c2', name: 'b', args: {} })).value, 'from-b');
  t.equal(log.rendezvous.length, 2);
  t.match(log.rendezvous[0], /tool "a" \(call c1\) waited 30 ms at rendezvous "g" for 2 invocations in flight together, but only 1 was: the host declares parallel_tool_calls yet ran these tool calls one after another/);
  t.match(log.rendezvous[1], /tool "b" \(call c2\)/);
});

t.test('a throwing getter\'s exception text quotes the value (what a host must keep out of its records, §6.3)', async (t) => {
  const v = unprojectable({ ledger: 'LEDGER-ENTRY-77' }, 'throwing_getter') as unknown as Record<string, unknown>;
  t.throws(() => v.ctk_unprojectable, /scripted getter fault reading \{"ledger":"LEDGER-ENTRY-77"\}/);
});

t.test('non_json_verdicts: the verdict as written plus, at index 0 of a nested list, a value JSON cannot carry', async (t) => {
  const found: Record<string, string | undefined> = {};
  for (const kind of NON_JSON_VERDICT_KINDS) {
    const v = nonJsonVerdict({ decision: 'allow', reason: 'ctk:x' }, kind) as Record<string, unknown>;
    t.equal(v.decision, 'allow', kind);
    t.equal(v.reason, 'ctk:x', kind);
    const list = (v.ctk_unprojectable as { list: unknown[] }).list;
    t.equal(list.length, 1, `${kind}: a one-element list`);
    found[kind] = findNonJson(v);
  }
  t.match(found, {
    nan: /^NaN at the verdict\.ctk_unprojectable\.list\[0\]$/,
    infinity: /^Infinity at /,
    negative_infinity: /^-Infinity at /,
    bigint: /^a bigint at /,
    function: /^a function at /,
    symbol: /^a symbol at /,
    undefined_element: /^undefined at the verdict\.ctk_unprojectable\.list\[0\]$/,
    class_instance: /^an instance of Map at /,
    cycle: /^a cyclic reference at the verdict\.ctk_unprojectable\.list\[0\]$/,
    hole: /^a hole \(sparse array\) at the verdict\.ctk_unprojectable\.list\[0\]$/,
  });
  const hole = (nonJsonVerdict({ decision: 'allow' }, 'hole') as { ctk_unprojectable: { list: unknown[] } }).ctk_unprojectable.list;
  t.notOk(0 in hole, 'a hole is an empty slot, not an undefined item');
});

t.test('mock_faults: a failing model call rejects, a failing stream throws after its chunks, a failing tool throws; each is logged first', async (t) => {
  const { createMockModel, MockFault } = await import('./mocks.js');
  const log = newMockLog();
  const model = createMockModel(
    {
      model_script: [
        { respond: { content: 'secret answer', finish_reason: 'stop', fault: 'raise' } },
        { respond: { content: 'ab-c', finish_reason: 'stop', stream: ['a', 'b'], fault: 'raise', fault_after: 1 } },
        { respond: { content: 'ab', finish_reason: 'stop', stream: ['a', 'b'], fault: 'raise' } },
      ],
    },
    log,
  );
  const err = await model({ model_id: 'mock', messages: [] }).then(() => undefined, (e: unknown) => e);
  t.ok(err instanceof MockFault, 'the call rejects with a native error');
  t.equal((err as Error).name, 'MockFault');
  t.notMatch((err as Error).message, /secret/, 'the error names the mock only, no scripted content (§6.3)');
  t.equal(log.model_calls.length, 1, 'the failed call is logged');
  const pull = async (s: unknown) => {
    const got: unknown[] = [];
    try {
      for await (const c of s as AsyncIterable<unknown>) got.push(c);
    } catch (e) {
      return { got, error: e };
    }
    return { got, error: undefined };
  };
  const first = await pull(await model({ model_id: 'mock', messages: [] }));
  t.same(first.got, [{ content: 'a' }], 'fault_after chunks, whole and without finish_reason');
  t.ok(first.error instanceof MockFault);
  const second = await pull(await model({ model_id: 'mock', messages: [] }));
  t.same(second.got, [{ content: 'a' }, { content: 'b' }], 'absent fault_after: every listed chunk, then the failure');
  t.ok(second.error instanceof MockFault);
  t.same(log.streams.map((s) => [s.delivered, s.drained]), [[1, false], [2, false]], 'the mock counts what was pulled; a failing stream never drains');
  const tools = createMockTools({ tools: [{ name: 'a', behavior: [{ return: 'unused', fault: 'raise' }] }] }, log);
  await t.rejects(tools({ id: 'c1', name: 'a', args: {} }), /ctk: scripted tool failure/);
  t.same(log.tool_invocations, [{ id: 'c1', name: 'a', args: {} }], 'the failed invocation is logged');
});
