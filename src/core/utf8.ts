// Strict UTF-8 for files the CTK reads as JSON: RFC 8259 §8.1 requires UTF-8, and a lenient decode
// would turn a bad byte into U+FFFD silently (a vector, or a context whose identity is then computed
// over text that is not in the file).
// Stryker disable all: CTK-side code: only the CTK's file reading calls it (vectors, declared surfaces, golden files, the identity command's input), so no host obligation reaches it; utf8.test.ts ('malformed bytes throw with the offset of the first bad byte', 'the offset agrees with the strict decoder on every boundary byte…') kills its mutants

export class Utf8Error extends Error {
  constructor(readonly offset: number) {
    super(`not valid UTF-8 (the first bad byte is at offset ${offset}); JSON text must be UTF-8 (RFC 8259 §8.1)`);
    this.name = 'Utf8Error';
  }
}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes `bytes` as UTF-8, throwing Utf8Error at the first malformed sequence. A BOM is kept. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return strict.decode(bytes);
  } catch {
    throw new Utf8Error(firstBadOffset(bytes));
  }
}

/** Offset of the first byte that does not start or continue a well-formed sequence (RFC 3629 §4). */
export function firstBadOffset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    // Length and the allowed range of the second byte (excludes overlongs and surrogates).
    const [len, lo, hi] =
      b >= 0xc2 && b <= 0xdf ? [2, 0x80, 0xbf] :
      b === 0xe0 ? [3, 0xa0, 0xbf] :
      b === 0xed ? [3, 0x80, 0x9f] :
      b >= 0xe1 && b <= 0xef ? [3, 0x80, 0xbf] :
      b === 0xf0 ? [4, 0x90, 0xbf] :
      b >= 0xf1 && b <= 0xf3 ? [4, 0x80, 0xbf] :
      b === 0xf4 ? [4, 0x80, 0x8f] : [0, 0, 0];
    if (len === 0 || i + len > bytes.length) return i;
    const second = bytes[i + 1]!;
    if (second < lo || second > hi) return i;
    for (let k = 2; k < len; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    i += len;
  }
  return bytes.length;
}
// Stryker restore all
