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

/** The start of the first malformed sequence, as the longest prefix the strict decoder accepts (RFC 3629 §3–4). */
function referenceOffset(bytes: Uint8Array): number {
  const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  for (let p = bytes.length; p > 0; p--) {
    try {
      strict.decode(bytes.subarray(0, p));
      return p;
    } catch {
      // a shorter prefix
    }
  }
  return 0;
}

t.test('the offset agrees with the strict decoder on every boundary byte, in sequences of one to five bytes', async (t) => {
  // Each lead byte's range edges, each continuation edge, ASCII and bytes that never occur in UTF-8.
  const EDGES = [0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xc3, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff];
  let s = 0x1234567;
  const next = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
  let disagreements = 0;
  const check = (bytes: Uint8Array) => {
    const want = referenceOffset(bytes);
    if (firstBadOffset(bytes) !== want) {
      disagreements++;
      if (disagreements < 6) t.fail(`${Array.from(bytes, (b) => b.toString(16)).join(' ')}: ${firstBadOffset(bytes)}, the decoder says ${want}`);
    }
    if (want === bytes.length) {
      if (decodeUtf8(bytes) !== new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)) disagreements++;
    } else {
      try {
        decodeUtf8(bytes);
        disagreements++;
      } catch (error) {
        if (!(error instanceof Utf8Error) || error.offset !== want || error.name !== 'Utf8Error' || !error.message.includes(`at offset ${want})`)) disagreements++;
      }
    }
  };
  for (const a of EDGES) for (const b of EDGES) check(Uint8Array.from([a, b]));
  for (const a of EDGES) for (const b of EDGES) for (const c of EDGES) check(Uint8Array.from([a, b, c]));
  for (let n = 0; n < 6000; n++) {
    const len = 1 + Math.floor(next() * 5);
    check(Uint8Array.from({ length: len }, () => EDGES[Math.floor(next() * EDGES.length)]!));
  }
  // Well-formed sequences of every length, after ASCII, then cut short by one byte.
  for (const text of ['a', 'é', '\u0800', '\uffff', '😀', '\u{10ffff}', 'a€b']) {
    const bytes = Buffer.from(`x${text}`);
    check(Uint8Array.from(bytes));
    check(Uint8Array.from(bytes.subarray(0, bytes.length - 1)));
  }
  t.equal(disagreements, 0);
});
