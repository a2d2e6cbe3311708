// JSON text in and out: parseJsonText keeps exact numbers, jsonText writes them back as their own tokens.
import t from 'tap';
import { LosslessNumber } from 'lossless-json';
import { jsonText, parseJsonText } from './json-text.js';
import type { Json } from './types.js';

t.test('jsonText writes an exact number as its digits, never the wrapper object or the nearest double', async (t) => {
  const parsed = parseJsonText('{"id":9007199254740993,"f":1e400,"n":[1,2.5,"x",null,true]}') as Json;
  t.equal(jsonText(parsed), '{"id":9007199254740993,"f":1e400,"n":[1,2.5,"x",null,true]}');
  t.equal(jsonText({ v: new LosslessNumber('12345678901234567890') as unknown as Json }), '{"v":12345678901234567890}');
  t.equal(jsonText({ isLosslessNumber: true, value: '12' }), '{"isLosslessNumber":true,"value":"12"}', 'a lookalike object stays the object it is');
  t.equal(jsonText('text'), '"text"');
  t.equal(jsonText(null), 'null');
});
