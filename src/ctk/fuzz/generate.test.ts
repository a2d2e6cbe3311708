import t from 'tap';
import { generateCase, caseId } from './generate.js';
import { generationSpace, FuzzSurfaceError } from './space.js';
import { caseRng } from './rng.js';
import { referenceSurface, withIncrementalStreaming } from '../../harness/reference-harness.js';
import { validateSurface } from '../../harness/surface.js';
import { vectorFromValue } from '../load.js';
import { parseLossless, stringifyLossless } from '../json.js';
import { deepClone } from '../../core/json.js';
import { skipReason } from '../skip.js';
import { interceptorRuleLists, usesStream, usesUnprojectable } from '../vector.js';
import type { Json, JsonObject } from '../../core/types.js';
import { LosslessNumber } from '../json.js';
import { tidy } from './shrink.js';
import { payloadMarkers } from './normalize.js';

const reference = generationSpace(referenceSurface());

t.test('the PRNG is a pure function of (seed, case index)', async (t) => {
  const draw = (seed: number, i: number) => Array.from({ length: 5 }, ((r) => () => r.next())(caseRng(seed, i)));
  t.same(draw(7, 3), draw(7, 3), 'same seed and index, same draws');
  t.not(JSON.stringify(draw(7, 3)), JSON.stringify(draw(7, 4)), 'another index, other draws');
  t.not(JSON.stringify(draw(7, 3)), JSON.stringify(draw(8, 3)), 'another seed, other draws');
  const r = caseRng(1, 1);
  for (let i = 0; i < 1000; i++) {
    const x = r.next();
    if (!(x >= 0 && x < 1)) t.fail(`draw ${x} outside [0, 1)`);
  }
});

t.test('every generated case loads and validates like a hand-written vector (4000 cases, 4 seeds)', async (t) => {
  const problems: string[] = [];
  for (const seed of [1, 2, 3, 99]) {
    for (let i = 0; i < 1000; i++) {
      const v = generateCase(reference, seed, i);
      // Through text, as a file would be read: lossless numbers and all.
      const r = vectorFromValue(parseLossless(stringifyLossless(v, 2)), `${v.id}.json`);
      if ('problem' in r) problems.push(r.problem);
      else if (skipReason(r.loaded, referenceSurface()) !== undefined) problems.push(`${v.id}: skipped by the surface it was generated for: ${skipReason(r.loaded, referenceSurface())}`);
    }
  }
  t.same(problems.slice(0, 5), [], 'no invalid case');
});

t.test('the same seed gives the same cases; ids carry the seed and case index', async (t) => {
  for (const i of [0, 17, 512]) t.same(stringifyLossless(generateCase(reference, 5, i)), stringifyLossless(generateCase(reference, 5, i)));
  t.not(stringifyLossless(generateCase(reference, 5, 1)), stringifyLossless(generateCase(reference, 6, 1)));
  t.equal(caseId(42, 7), 'AH-CTK-999-fuzz-s42-c7');
  t.equal(generateCase(reference, 42, 7).id, 'AH-CTK-999-fuzz-s42-c7');
});

t.test('the generator covers the grammar: faults, hangs, raw returns, approvals, multi-turn, parallel tools, every profile and mode', async (t) => {
  const seen = new Set<string>();
  for (let i = 0; i < 1500; i++) {
    const v = generateCase(reference, 11, i);
    const text = stringifyLossless(v);
    seen.add(`profile:${v.composition?.profile ?? 'sequential/first_deny'}`);
    seen.add(`mode:${v.mode ?? 'enforce'}`);
    seen.add(`provider:${v.identity_provider === undefined ? 'jcs-sha256' : v.identity_provider}`);
    if (v.scenario.inputs) seen.add('multi_turn');
    if ([v.scenario.input, ...(v.scenario.inputs ?? [])].some((i) => i !== undefined && typeof i.content !== 'string')) seen.add('object input');
    if (v.scenario.parallel_tools) seen.add('parallel_tools');
    if (v.redact_for_approval) seen.add('redaction');
    if (interceptorRuleLists(v).length === 0) seen.add('zero interceptors');
    for (const f of ['raise', 'mutate', 'hang', 'malformed_verdict']) if (text.includes(`"fault":"${f}"`)) seen.add(`fault:${f}`);
    for (const o of ['approve', 'reject', 'unresolved']) if (text.includes(`"outcome":"${o}"`)) seen.add(`outcome:${o}`);
    if (text.includes('"identity_override"')) seen.add('echo mismatch');
    if (text.includes('"when_args"')) seen.add('when_args');
    if (text.includes('"is_error":true')) seen.add('is_error');
    if (text.includes('"approval":{')) seen.add('liftable deny');
    if (text.includes('"decision":"transform"')) seen.add('transform');
    if (text.includes('"match":')) seen.add('match');
    if (text.includes('"result_labels"')) seen.add('labels');
    if (text.includes('"evidence"')) seen.add('evidence');
    if (text.includes('"warnings"')) seen.add('warnings');
    for (const rules of interceptorRuleLists(v)) for (const r of rules) if ('return' in r && (r.return === null || typeof r.return !== 'object' || Array.isArray(r.return))) seen.add('raw return');
    if (usesStream(v)) seen.add('stream');
    if (text.includes('"stream_truncated":true')) seen.add('stream_truncated');
    if (v.scenario.model_script?.some((m) => Array.isArray(m.respond.stream) && (m.respond.stream as string[]).length > 1)) seen.add('multi-chunk stream');
    if ((v.scenario.tools ?? []).some((tool) => tool.behavior.some((b) => b.unprojectable !== undefined))) seen.add('unprojectable tool result');
    if (v.scenario.model_script?.some((m) => m.respond.unprojectable !== undefined)) seen.add('unprojectable model response');
  }
  const want = [
    'profile:sequential/first_deny', 'profile:sequential/run_all', 'profile:parallel/strictest', 'profile:parallel/unanimous',
    'mode:enforce', 'mode:evaluate_only', 'provider:jcs-sha256', 'provider:null', 'provider:ctk-fault',
    'multi_turn', 'object input', 'parallel_tools', 'redaction', 'zero interceptors', 'fault:raise', 'fault:mutate', 'fault:hang', 'fault:malformed_verdict',
    'outcome:approve', 'outcome:reject', 'outcome:unresolved', 'echo mismatch', 'when_args', 'is_error', 'liftable deny', 'transform', 'match',
    'labels', 'evidence', 'warnings', 'raw return',
    'stream', 'stream_truncated', 'multi-chunk stream', 'unprojectable tool result', 'unprojectable model response',
  ];
  t.same(want.filter((w) => !seen.has(w)), [], 'every feature appears');
});

t.test('cases stay inside a restricted surface', async (t) => {
  const surface = validateSurface(
    {
      name: 'narrow',
      version: '1',
      capabilities: ['model_calls'],
      profiles: { 'sequential/first_deny': { on_approval: ['stop'] } },
      identity_providers: ['jcs-sha256'],
      modes: ['enforce'],
    },
    'test',
  );
  const space = generationSpace(surface);
  for (let i = 0; i < 500; i++) {
    const v = generateCase(space, 3, i);
    const r = vectorFromValue(v, 'x.json');
    if ('problem' in r) t.fail(r.problem);
    else {
      const why = skipReason(r.loaded, surface);
      if (why !== undefined) t.fail(`${v.id}: ${why}`);
    }
    const text = stringifyLossless(v);
    if (text.includes('"hang"') || text.includes('"tools"') || text.includes('"inputs"')) t.fail(`${v.id} uses something the surface does not declare`);
    for (const rules of interceptorRuleLists(v))
      for (const rule of rules) if ('return' in rule && (rule.return === null || typeof rule.return !== 'object' || Array.isArray(rule.return))) t.fail(`${v.id}: a raw return without raw_interceptor_return`);
  }
});

t.test('a surface the fuzzer cannot generate for is refused, naming what is missing', async (t) => {
  const base = { name: 'h', version: '1', capabilities: ['model_calls'], profiles: { 'sequential/first_deny': { on_approval: ['stop'] } }, identity_providers: ['jcs-sha256'], modes: ['enforce'] };
  t.throws(() => generationSpace(validateSurface({ ...base, capabilities: [] }, 't')), FuzzSurfaceError);
  t.throws(() => generationSpace(validateSurface({ ...base, capabilities: [] }, 't')), /model_calls/);
  t.throws(() => generationSpace(validateSurface({ ...base, identity_providers: ['my-hash'] }, 't')), /no identity provider the reference host can run/);
  t.throws(() => generationSpace(validateSurface({ ...base, profiles: {} }, 't')), /no composition profile/);
  t.throws(() => generationSpace(validateSurface({ ...base, profiles: { 'sequential/first_deny': {} } }, 't')), /no composition profile with a value for every knob/);
  t.throws(() => generationSpace(validateSurface({ ...base, modes: [] }, 't')), /no mode/);
});

t.test('streams and projection faults follow the declared surface: incremental_output, streaming, neither', async (t) => {
  const incremental = withIncrementalStreaming(referenceSurface());
  const buffered = referenceSurface();
  const plain = validateSurface({ ...buffered, capabilities: buffered.capabilities.filter((c) => c !== 'streaming' && c !== 'projection_faults') }, 'test');
  const counts = { incremental: 0, buffered: 0, plainStreams: 0, plainUnprojectable: 0 };
  const problems: string[] = [];
  for (const [surface, kind] of [[incremental, 'incremental'], [buffered, 'buffered'], [plain, 'plain']] as const) {
    const space = generationSpace(surface);
    for (let i = 0; i < 600; i++) {
      const v = generateCase(space, 4, i);
      const r = vectorFromValue(parseLossless(stringifyLossless(v)), `${v.id}.json`);
      if ('problem' in r) {
        problems.push(r.problem);
        continue;
      }
      const why = skipReason(r.loaded, surface);
      if (why !== undefined) problems.push(`${kind} ${v.id}: ${why}`);
      if (!usesStream(v)) continue;
      // §12.1: an incremental host's streamed cases are incremental vectors; a buffering host's are buffered ones.
      const caps = r.loaded.requiredCapabilities;
      if (kind === 'incremental' && caps.includes('incremental_output')) counts.incremental++;
      if (kind === 'buffered' && caps.includes('streaming') && !caps.includes('incremental_output')) counts.buffered++;
      if (kind === 'plain') counts.plainStreams++;
      // READINGS.md (c): after a post_model_call transform, a later segment's basis is open; such a case streams one segment.
      const transforms = stringifyLossless([v.interceptor_script ?? v.interceptor_scripts, v.approval_script]).includes('"decision":"transform"');
      const postTransform = transforms && interceptorRuleLists(v).some((rules) => rules.some((rule) => rule.at === 'post_model_call' && (rule.return as JsonObject | null)?.decision === 'transform'));
      if (kind === 'incremental' && postTransform && v.scenario.model_script!.some((m) => Array.isArray(m.respond.stream) && (m.respond.stream as string[]).length > 1))
        problems.push(`${v.id}: an incremental case that transforms at post_model_call streams more than one segment`);
      for (const m of v.scenario.model_script ?? []) {
        const resp = m.respond as JsonObject;
        if (!Array.isArray(resp.stream)) continue;
        const joined = (resp.stream as string[]).join('');
        if (resp.stream_truncated === true ? !(typeof resp.content === 'string' && resp.content.startsWith(joined) && resp.content !== joined) : joined !== resp.content)
          problems.push(`${v.id}: chunks ${JSON.stringify(resp.stream)} against content ${JSON.stringify(resp.content)}`);
      }
    }
    if (kind === 'plain') for (let i = 0; i < 600; i++) if (usesUnprojectable(generateCase(space, 4, i))) counts.plainUnprojectable++;
  }
  t.same(problems.slice(0, 5), [], 'every case loads, runs on its surface, and its chunks concatenate to (a proper prefix of) the content');
  t.ok(counts.incremental > 50, `${counts.incremental} incremental streamed cases`);
  t.ok(counts.buffered > 30, `${counts.buffered} buffered streamed cases`);
  t.equal(counts.plainStreams, 0, 'no stream for a host declaring neither streaming nor incremental_output');
  t.equal(counts.plainUnprojectable, 0, 'no unprojectable value for a host not declaring projection_faults');
});

/** Loads a case through text as a file would be read; its problem, or why its own surface skips it, or undefined. */
function loadProblem(v: ReturnType<typeof generateCase>, surface: ReturnType<typeof referenceSurface>): string | undefined {
  const r = vectorFromValue(parseLossless(stringifyLossless(v)), `${v.id}.json`);
  if ('problem' in r) return r.problem;
  const why = skipReason(r.loaded, surface);
  return why === undefined ? undefined : `${v.id}: skipped by the surface it was generated for: ${why}`;
}

const withoutCaps = (drop: string[], add: string[] = []) => {
  const base = referenceSurface();
  return validateSurface({ ...base, capabilities: [...base.capabilities.filter((c) => !drop.includes(c)), ...add] }, 'test');
};

t.test('non-JSON verdicts only for a host declaring non_json_verdicts, as the grammar scripts them (GRAMMAR.md §3)', async (t) => {
  const declared = referenceSurface();
  const undeclared = withoutCaps(['non_json_verdicts']);
  const problems: string[] = [];
  const kinds = new Set<string>();
  let undeclaredCount = 0;
  for (let i = 0; i < 1500; i++) {
    const v = generateCase(generationSpace(declared), 21, i);
    const marked = interceptorRuleLists(v).flat().filter((rule) => rule.unprojectable !== undefined);
    for (const rule of marked) {
      kinds.add(rule.unprojectable!);
      // An object verdict with no fault, the point's first rule (so it is what the interceptor returns there).
      if (rule.fault !== undefined || rule.return === null || typeof rule.return !== 'object' || Array.isArray(rule.return)) problems.push(`${v.id}: unprojectable on ${JSON.stringify(rule)}`);
    }
    if (marked.length > 0 && !(v.capabilities ?? []).includes('non_json_verdicts')) problems.push(`${v.id}: does not list non_json_verdicts`);
    const p = loadProblem(v, declared);
    if (p) problems.push(p);
    const u = generateCase(generationSpace(undeclared), 21, i);
    if (interceptorRuleLists(u).flat().some((rule) => rule.unprojectable !== undefined)) undeclaredCount++;
    const q = loadProblem(u, undeclared);
    if (q) problems.push(q);
  }
  t.same(problems.slice(0, 5), [], 'every case is valid and runs on its own surface');
  t.ok(kinds.size >= 8, `${kinds.size} of the 10 kinds drawn: ${[...kinds].join(', ')}`);
  t.equal(undeclaredCount, 0, 'none for a host that does not declare non_json_verdicts');
});

t.test('projection faults only for a host declaring projection_faults: results, failing tools, model responses', async (t) => {
  const seen = { result: 0, error: 0, response: 0, undeclared: 0 };
  const undeclared = generationSpace(withoutCaps(['projection_faults']));
  for (let i = 0; i < 1500; i++) {
    const v = generateCase(reference, 22, i);
    for (const tool of v.scenario.tools ?? []) for (const b of tool.behavior) if (b.unprojectable !== undefined) seen[b.is_error === true ? 'error' : 'result']++;
    if (v.scenario.model_script?.some((m) => m.respond.unprojectable !== undefined)) seen.response++;
    if (usesUnprojectable(v) && !(v.capabilities ?? []).includes('projection_faults')) t.fail(`${v.id} does not list projection_faults`);
    if (usesUnprojectable(generateCase(undeclared, 22, i))) seen.undeclared++;
  }
  t.ok(seen.result > 5 && seen.error > 5 && seen.response > 3, `unprojectable tool results ${seen.result}, failing tools' values ${seen.error}, model responses ${seen.response}`);
  t.equal(seen.undeclared, 0, 'none for a host that does not declare projection_faults');
});

t.test('null and empty answers, with and without tool calls; tool values and args of every JSON type', async (t) => {
  const seen = new Set<string>();
  const problems: string[] = [];
  const typeOf = (x: unknown): string =>
    x === null ? 'null' : Array.isArray(x) ? 'array' : x instanceof LosslessNumber ? 'lossless' : typeof x === 'object' ? ((x as JsonObject).isLosslessNumber === true ? 'lookalike' : 'object') : typeof x;
  const walk = (x: unknown, tag: string): void => {
    seen.add(`${tag}:${typeOf(x)}`);
    if (typeof x === 'number' && !Number.isInteger(x)) seen.add(`${tag}:decimal`);
    if (x === '') seen.add(`${tag}:empty string`);
    if (x !== null && typeof x === 'object' && !(x instanceof LosslessNumber)) for (const y of Object.values(x)) walk(y, tag);
  };
  for (let i = 0; i < 2000; i++) {
    const v = generateCase(reference, 23, i);
    for (const m of v.scenario.model_script ?? []) {
      const resp = m.respond as JsonObject;
      const calls = (resp.tool_calls as JsonObject[]) ?? [];
      if (resp.content === null || resp.content === '') seen.add(`${resp.content === null ? 'null' : 'empty'} answer ${calls.length > 0 ? 'with' : 'without'} tool calls`);
      for (const c of calls) for (const a of Object.values(c.args as JsonObject)) walk(a, 'args');
    }
    for (const tool of v.scenario.tools ?? []) for (const b of tool.behavior) if (b.fault === undefined) walk(b.return, b.is_error === true ? 'error' : 'result');
    const inputs = [v.scenario.input, ...(v.scenario.inputs ?? [])].filter((x) => x !== undefined);
    if (inputs.some((x) => typeof x!.content === 'string' && /[\ud800-\udbff](?![\udc00-\udfff])/.test(x!.content))) seen.add('lone surrogate input');
    if (stringifyLossless(v).includes(`"artefact":"${'e'.repeat(10_225)}"`)) seen.add('evidence at the cap');
    const outputs = (v.scenario.model_script ?? []).filter((m) => ((m.respond as JsonObject).tool_calls as Json[]).length === 0).map((m) => (m.respond as JsonObject).content);
    if ((v.scenario.inputs ?? []).slice(1).some((x) => typeof x.content === 'string' && outputs.includes(x.content))) seen.add('a later input repeating an answer');
    const p = loadProblem(v, referenceSurface());
    if (p) problems.push(p);
  }
  t.same(problems.slice(0, 5), [], 'every case is valid and runs on its surface');
  const want = [
    'null answer without tool calls', 'empty answer without tool calls', 'null answer with tool calls', 'empty answer with tool calls',
    ...['args', 'result', 'error'].flatMap((tag) => ['object', 'array', 'string', 'number', 'decimal', 'boolean', 'null', 'empty string', 'lookalike'].map((k) => `${tag}:${k}`)),
    'lone surrogate input', 'evidence at the cap', 'a later input repeating an answer',
  ];
  t.same(want.filter((w) => !seen.has(w)), [], 'every class appears');
});

t.test("a failing tool's error value other than a string or an object only for a host declaring tool_error_values", async (t) => {
  const odd = (v: ReturnType<typeof generateCase>) => (v.scenario.tools ?? []).some((tool) => tool.behavior.some((b) => b.is_error === true && typeof b.return !== 'string' && (b.return === null || typeof b.return !== 'object' || Array.isArray(b.return) || b.return instanceof LosslessNumber)));
  const without = withoutCaps(['tool_error_values']);
  let declared = 0;
  for (let i = 0; i < 1000; i++) {
    const v = generateCase(reference, 24, i);
    if (odd(v)) {
      declared++;
      if (!(v.capabilities ?? []).includes('tool_error_values')) t.fail(`${v.id} does not list tool_error_values`);
    }
    const u = generateCase(generationSpace(without), 24, i);
    if (odd(u)) t.fail(`${u.id}: an error value of another type without tool_error_values`);
    const p = loadProblem(u, without);
    if (p) t.fail(p);
  }
  t.ok(declared > 20, `${declared} cases with such error values where declared`);
});

t.test('integers beyond ±(2^53−1) within and beyond 64 bits only for a host declaring int64_json / bigint_json; shrinking keeps the gate', async (t) => {
  const bigOf = (v: ReturnType<typeof generateCase>) => {
    const text = stringifyLossless(v);
    return { int64: /9223372036854775807|-9223372036854775808/.test(text), bigint: /123456789012345678901234567890|98765432109876543210987654321/.test(text) };
  };
  const surface = withoutCaps([], ['int64_json', 'bigint_json']);
  const counts = { int64: 0, bigint: 0 };
  for (let i = 0; i < 1500; i++) {
    const v = generateCase(generationSpace(surface), 25, i);
    const b = bigOf(v);
    if (b.int64) counts.int64++;
    if (b.bigint) counts.bigint++;
    if (b.int64 && !(v.capabilities ?? []).includes('int64_json')) t.fail(`${v.id} does not list int64_json`);
    if (b.bigint && !(v.capabilities ?? []).includes('bigint_json')) t.fail(`${v.id} does not list bigint_json`);
    if ((b.int64 || b.bigint) && !tidy(deepClone(v)).capabilities!.includes(b.int64 ? 'int64_json' : 'bigint_json')) t.fail(`${v.id}: tidy dropped the gate`);
    const p = loadProblem(v, surface);
    if (p) t.fail(p);
    const r = bigOf(generateCase(reference, 25, i));
    if (r.int64 || r.bigint) t.fail('the reference surface declares neither, and got such an integer');
  }
  t.ok(counts.int64 > 10 && counts.bigint > 10, `int64 ${counts.int64}, bigint ${counts.bigint} cases`);
});

t.test('§12.2 rendezvous only in parallel cases whose batches have one size and nothing at pre_tool_call; never without parallel_tool_calls', async (t) => {
  let probes = 0;
  const serial = generationSpace(withoutCaps(['parallel_tool_calls']));
  for (let i = 0; i < 3000; i++) {
    const v = generateCase(reference, 26, i);
    const clauses = (v.scenario.tools ?? []).flatMap((tool) => tool.behavior);
    if (!clauses.some((b) => b.rendezvous !== undefined)) continue;
    probes++;
    const sizes = (v.scenario.model_script ?? []).map((m) => ((m.respond as JsonObject).tool_calls as Json[]).length).filter((n) => n > 0);
    if (v.scenario.parallel_tools !== true) t.fail(`${v.id}: a rendezvous without parallel_tools`);
    if (!clauses.every((b) => b.rendezvous?.parties === sizes[0]) || sizes.some((n) => n !== sizes[0])) t.fail(`${v.id}: parties do not match every batch`);
    if (interceptorRuleLists(v).some((rules) => rules.some((rule) => rule.at === 'pre_tool_call'))) t.fail(`${v.id}: a rule at pre_tool_call could deny a call of the batch`);
    const p = loadProblem(v, referenceSurface());
    if (p) t.fail(p);
    if ((generateCase(serial, 26, i).scenario.tools ?? []).some((tool) => tool.behavior.some((b) => b.rendezvous !== undefined))) t.fail('a rendezvous without parallel_tool_calls');
  }
  t.ok(probes > 10, `${probes} cases probe concurrency`);
});

t.test('§6.3 payload markers: distinctive payload texts, words and member names, and the CTK exception texts; never tool call ids or names', async (t) => {
  const v = generateCase(reference, 1, 0);
  v.scenario = {
    input: { content: 'please refund order ord-417', role: 'user' },
    tools: [{ name: 'file_refund', behavior: [{ return: { 'memo-DE44': 'x', ledger: 'LEDGER-ENTRY-77' } }] }],
    model_script: [{ respond: { content: null, tool_calls: [{ id: 'call-12345', name: 'file_refund', args: { order: 'ord-9001' } }], finish_reason: 'tool_calls' } }],
  };
  const markers = payloadMarkers(v);
  for (const m of ['please refund order ord-417', 'ord-417', 'memo-DE44', 'LEDGER-ENTRY-77', 'ord-9001', 'scripted interceptor fault']) t.ok(markers.includes(m), m);
  for (const m of ['call-12345', 'file_refund', 'ledger', 'please']) t.notOk(markers.includes(m), `not ${m}`);
});
