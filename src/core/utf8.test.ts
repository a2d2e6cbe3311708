import t from 'tap';
import { decodeUtf8, firstBadOffset, Utf8Error } from './utf8.js';

t.test('well-formed text decodes, BOM kept', async (t) => {
  t.equal(decodeUtf8(Buffer.from('{"a":"é😀"}')), '{"a":"é😀"}');
  t.equal(decodeUtf8(Buffer.from('\uFEFF{}')), '\uFEFF{}');
});

t.test('malformed bytes throw with the offset of the first bad byte', async (t) => {
  const cases: Array<[number[], number]> = [
    [[0x7b, 0xff, 0x7d], 1],
    [[0x61, 0x62, 0xc3], 2], // cut short
    [[0xc0, 0xaf], 0], // overlong
    [[0xed, 0xa0, 0x80], 0], // surrogate
    [[0x61, 0xe2, 0x82], 1],
    [[0xf4, 0x90, 0x80, 0x80], 0], // beyond U+10FFFF
  ];
  for (const [bytes, offset] of cases) {
    const buf = Uint8Array.from(bytes);
    t.equal(firstBadOffset(buf), offset, bytes.join(','));
    t.throws(() => decodeUtf8(buf), new Utf8Error(offset));
  }
});
