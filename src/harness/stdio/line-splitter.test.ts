import t from 'tap';
import { LineSplitter } from './line-splitter.js';

t.test('lines across chunks, CRLF, and an over-long line dropped without buffering it', async (t) => {
  const lines: string[] = [];
  const overflows: number[] = [];
  const s = new LineSplitter({ maxLineBytes: 8, onLine: (l) => lines.push(l.toString()), onOverflow: (n) => overflows.push(n) });
  s.push(Buffer.from('ab'));
  s.push(Buffer.from('c\r\nde\n0123456'));
  s.push(Buffer.from('789abcdef'));
  s.push(Buffer.from('more more more\nok\ntail'));
  s.end();
  t.same(lines, ['abc', 'de', 'ok', 'tail']);
  t.equal(overflows.length, 1, 'reported once per long line');
});
