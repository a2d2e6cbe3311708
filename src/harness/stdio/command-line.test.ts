import t from 'tap';
import { CommandLineError, splitCommandLine } from './command-line.js';

t.test('splits a command line like a POSIX shell would, without running one', async (t) => {
  t.same(splitCommandLine('python3 examples/python-host/host.py'), ['python3', 'examples/python-host/host.py']);
  t.same(splitCommandLine(`node  "my dir/host.js" 'a b' c\\ d ""`), ['node', 'my dir/host.js', 'a b', 'c d', '']);
  t.same(splitCommandLine(`echo "say \\"hi\\"" 'it''s'`), ['echo', 'say "hi"', 'its']);
  t.same(splitCommandLine('a $HOME `x` | y'), ['a', '$HOME', '`x`', '|', 'y'], 'no expansion, no pipes');
});

t.test('rejects what it cannot split', async (t) => {
  t.throws(() => splitCommandLine(''), CommandLineError);
  t.throws(() => splitCommandLine('node "unterminated'), /unterminated double quote/);
  t.throws(() => splitCommandLine("node 'x"), /unterminated single quote/);
});
