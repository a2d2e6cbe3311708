import t from 'tap';
import { LosslessNumber, toPlainJson } from './json.js';

t.test('toPlainJson: the value itself when nothing needs converting', async (t) => {
  const plain = { a: [1, 'x', { b: null, c: [true] }], d: { e: 2.5 } };
  t.equal(toPlainJson(plain), plain, 'no copy of plain JSON');
  t.equal(toPlainJson('s'), 's');
  t.equal(toPlainJson(null), null);
});

t.test('toPlainJson: a copy with LosslessNumbers as numbers, the input untouched', async (t) => {
  const big = new LosslessNumber('12345678901234567890');
  const value: { keep: object; list: [number, { n: unknown }] } = { keep: { x: 1 }, list: [0, { n: big }] };
  const out = toPlainJson(value) as { keep: unknown; list: [number, { n: unknown }] };
  t.not(out, value);
  t.equal(out.list[1].n, 12345678901234567890);
  t.equal(value.list[1].n, big, 'the input still holds the LosslessNumber');
  t.same(out.keep, { x: 1 });
});

t.test('toPlainJson: objects that are not plain are copied as plain ones, as before', async (t) => {
  class Box {
    v = 1;
  }
  const out = toPlainJson({ box: new Box() }) as { box: object };
  t.equal(Object.getPrototypeOf(out.box), Object.prototype);
  t.same(out.box, { v: 1 });
  const parsed = JSON.parse('{"__proto__": {"x": 1}, "y": 2}') as object;
  t.not(toPlainJson(parsed), parsed, 'an own __proto__ member takes the copying path');
});

t.test('parseLossless reads every text as the lossless parser does (JSON.parse only where the two agree)', async (t) => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const path = await import('node:path');
  const { PACKAGE_ROOT } = await import('../version.js');
  const { isLosslessNumber, parseLossless, parseLosslessOnly } = await import('./json.js');
  /** A rendering that tells every difference apart: types, LosslessNumber tokens, -0, member order, prototypes. */
  const shape = (v: unknown): unknown => {
    if (isLosslessNumber(v)) return ['lossless', (v as { value: string }).value];
    if (typeof v === 'number') return ['number', Object.is(v, -0) ? '-0' : String(v)];
    if (Array.isArray(v)) return ['array', v.map(shape)];
    if (v !== null && typeof v === 'object') return ['object', Object.getPrototypeOf(v) === Object.prototype, Object.keys(v).map((k) => [k, shape((v as Record<string, unknown>)[k])])];
    return [typeof v, v];
  };
  const outcome = (read: (text: string) => unknown, text: string) => {
    try {
      return shape(read(text));
    } catch (error) {
      return ['throws', (error as Error).name, (error as Error).message];
    }
  };
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  const texts = [
    '{"a": 1, "b": [1.5, -0, 0, 1e2, 1E-7, 12345678901234567890, 9007199254740993, 1e400, 0.1, 100000000000000000000000]}',
    '{"a": 1, "a": 1}',
    '{"a": 1, "a": 2}',
    '{"a": {"x": 1}, "a": {"x": 1.0}}',
    '{"__proto__": {"x": 1}, "y": "\\u0041\\ud800\\n"}',
    '{"k:": "v", "q": "\\":", "n": ["1", 2]}',
    '{"a": 1,}',
    '[1 2]',
    '{"1": 1, "0": 0, "b": true, "a": null}',
    ' \t\n{"a" \n : \r [ ] }\n',
    '"text"',
    '-12',
    '1.0',
    '2.50',
    deep(150),
    deep(250),
    deep(20000),
    '',
  ];
  const dir = path.join(PACKAGE_ROOT, 'vectors');
  for (const f of (readdirSync(dir, { recursive: true }) as string[]).filter((x) => x.endsWith('.json'))) texts.push(readFileSync(path.join(dir, f), 'utf8'));
  for (const text of texts) {
    const want = outcome(parseLosslessOnly, text);
    const got = outcome(parseLossless, text);
    if (JSON.stringify(got) !== JSON.stringify(want)) t.fail(`${text.slice(0, 80)}: ${JSON.stringify(got).slice(0, 300)} against ${JSON.stringify(want).slice(0, 300)}`);
  }
  t.pass(`${texts.length} texts read alike`);
});
