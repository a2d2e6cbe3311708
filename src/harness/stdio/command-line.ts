// Splits a --harness-cmd command line into file + args without a shell: whitespace separates
// words; '…' quotes literally; "…" quotes with \" \\ \$ \` escapes; a backslash outside quotes escapes the next char.

/** A command line that cannot be split: bad input, which the CLI reports as exit 2. */
export class CommandLineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandLineError';
  }
}

export function splitCommandLine(commandLine: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  const s = commandLine;
  while (i < s.length) {
    const c = s[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
    } else if (c === "'") {
      const end = s.indexOf("'", i + 1);
      if (end < 0) throw new CommandLineError(`unterminated single quote at column ${i + 1} in command line: ${s}`);
      word += s.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      i++;
      inWord = true;
      for (;;) {
        if (i >= s.length) throw new CommandLineError(`unterminated double quote in command line: ${s}`);
        const d = s[i]!;
        if (d === '"') {
          i++;
          break;
        }
        if (d === '\\' && i + 1 < s.length && '"\\$`'.includes(s[i + 1]!)) {
          word += s[i + 1];
          i += 2;
        } else {
          word += d;
          i++;
        }
      }
    } else if (c === '\\') {
      if (i + 1 >= s.length) throw new CommandLineError(`trailing backslash in command line: ${s}`);
      word += s[i + 1];
      inWord = true;
      i += 2;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  if (words.length === 0) throw new CommandLineError('the harness command line is empty');
  return words;
}
