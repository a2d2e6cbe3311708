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
