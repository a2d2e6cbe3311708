// The pre-dispatch fast scan must say "not clean" for everything the detailed §4.4/§12.3 checks reject,
// and its size figure must never be below the real serialized size.
import t from 'tap';
import { LosslessNumber } from 'lossless-json';
import { scanJsonDomain } from './domain-scan.js';

t.test('clean JSON, with a size bound at or above the real UTF-8 length', async (t) => {
  const values = [null, true, 0, -0, 1e21, 'plain', 'é😀\u0001"\\', [1, 'two', { three: [3] }], { 'ключ': 'значение', '\u0000': '' }];
  for (const v of values) {
    const scan = scanJsonDomain(v, 128);
    t.ok(scan.clean, `${JSON.stringify(v)} is clean`);
    t.ok(scan.maxBytes >= Buffer.byteLength(JSON.stringify(v)), `${JSON.stringify(v)}: bound ${scan.maxBytes} covers the serialization`);
  }
});

t.test('everything JSON cannot carry is not clean (§4.4)', async (t) => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const cases: Array<[string, unknown]> = [
    ['NaN', { n: Number.NaN }],
    ['Infinity', [Number.POSITIVE_INFINITY]],
    ['lone high surrogate', { s: 'a\ud800' }],
    ['lone low surrogate in a member name', { ['\udc00']: 1 }],
    ['bigint', { b: 1n }],
    ['function', { f: () => 1 }],
    ['class instance', { d: new Date(0) }],
    ['sparse array', [1, , 3]], // eslint-disable-line no-sparse-arrays
    ['cycle', cyclic],
  ];
  for (const [name, v] of cases) t.notOk(scanJsonDomain(v, 128).clean, name);
});

t.test('depth bound (§12.3) and lossless numbers', async (t) => {
  t.ok(scanJsonDomain({ a: { b: {} } }, 3).clean, 'depth 3 within 3');
  t.notOk(scanJsonDomain({ a: { b: { c: {} } } }, 3).clean, 'depth 4 over 3');
  const scan = scanJsonDomain({ n: new LosslessNumber('9223372036854775807') }, 128);
  t.ok(scan.clean);
  t.ok(scan.lossless, 'a LosslessNumber is noticed');
  t.ok(scan.maxBytes >= '{"n":9223372036854775807}'.length);
});
