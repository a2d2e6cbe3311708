// The wire codec takes the native JSON path only where it is provably exact.
import t from 'tap';
import { LosslessNumber } from 'lossless-json';
import { parseWire, stringifyWire } from './wire-json.js';

t.test('integers beyond 2^53 survive a wire round trip byte for byte', async (t) => {
  for (const text of ['9223372036854775807', '-9223372036854775808', '340282366920938463463374607431768211457', '9007199254740993']) {
    const line = `{"n":${text},"a":[${text}]}`;
    const parsed = parseWire(line) as { n: LosslessNumber; a: LosslessNumber[] };
    t.ok(parsed.n instanceof LosslessNumber, `${text} is kept lossless`);
    t.equal(parsed.n.value, text);
    t.equal(stringifyWire(parsed), line, 'and written back exactly as received');
  }
});

t.test('ordinary messages parse and serialize exactly as JSON does', async (t) => {
  const msg = { jsonrpc: '2.0', id: 7, method: 'intercept', params: { index: 0, context: { sequence: 3, x: 1.5, e: 1e21, s: 'a\nb"c', z: -0 } } };
  const line = stringifyWire(msg);
  t.equal(line, JSON.stringify(msg));
  t.same(parseWire(line), JSON.parse(line));
});

t.test('long digit runs inside strings or huge exponents still parse correctly (lossless path)', async (t) => {
  t.same(parseWire('{"id":"12345678901234567890","n":1}'), { id: '12345678901234567890', n: 1 });
  const huge = parseWire('{"n":1e400}') as { n: unknown };
  t.ok(huge.n instanceof LosslessNumber, '1e400 is not silently turned into Infinity');
  t.throws(() => parseWire('{"a":'), SyntaxError);
  t.throws(() => parseWire('{"a":1,}'), SyntaxError);
});

t.test('short float tokens whose double is an integer ≥ 2^53 keep their token (§10.2 accepts them as floats)', async (t) => {
  for (const text of ['1e20', '9.1e15', '123456789e10', '-5e17']) {
    const parsed = parseWire(`{"n":${text},"s":"x"}`) as { n: unknown };
    t.ok(parsed.n instanceof LosslessNumber && parsed.n.value === text, `${text} stays a LosslessNumber`);
    t.equal(stringifyWire(parsed), `{"n":${text},"s":"x"}`, `${text} is written back as received`);
  }
  // Exact doubles §10.2 judges like their token take the native path's values.
  t.same(parseWire('{"a":9007199254740992,"b":1e21,"c":1.0,"d":-0}'), { a: 9007199254740992, b: 1e21, c: 1, d: -0 });
  t.equal(stringifyWire(parseWire('[9007199254740992]')), '[9007199254740992]', '2^53 is a plain number that prints back exactly');
  const deep = '['.repeat(50_000) + '1' + ']'.repeat(50_000);
  t.ok(Array.isArray(parseWire(deep)), 'the check walks a deeply nested message without overflowing the stack');
});
