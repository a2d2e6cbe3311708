// `identity [FILE|-]`: the §10.2 jcs-sha256 identity (or, with --canonical, the exact bytes hashed) of one AgentContext;
// `identity --golden FILE`: our provider checked against a golden identity file (identity-golden.ts).
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { CliError, EXIT } from './exit.js';
import { canonicalProjection, sha256Hex } from '../core/identity.js';
import { ContextInvalidError } from '../core/errors.js';
import { parseJsonText } from '../core/json-text.js';
import { DEFAULT_MAX_DEPTH } from '../core/canonical.js';
import { decodeUtf8, Utf8Error } from '../core/utf8.js';
import { goldenReport } from './identity-golden.js';

export interface IdentityOptions {
  canonical?: boolean;
  maxDepth?: number;
  golden?: string;
}

export function register(program: Command): void {
  program
    .command('identity')
    .description(
      'Print the jcs-sha256 context identity (§10.2) of an AgentContext read from FILE or stdin ("-" or omitted). ' +
        'With --canonical, print exactly the RFC 8785 bytes that are hashed, with no trailing newline. ' +
        'With --golden FILE, check the provider against a golden identity file ({"fixtures": [{id, ctx, expect}]}): one line per ' +
        'fixture; exit 1 on any mismatch, 2 on a file that is not a golden file. A fixture that contradicts RFC 8785 by itself ' +
        '(e.g. a canonical number that does not parse back to the input double) is reported as defective and counted neither way.',
    )
    .argument('[file]', 'AgentContext JSON file, or - for stdin', '-')
    .option('--canonical', 'print the canonical projection bytes instead of the identity')
    .option('--golden <file>', 'check every fixture of a golden identity file against our jcs-sha256 provider')
    .option('--max-depth <n>', `nesting bound for the identity path (§12.3, default ${DEFAULT_MAX_DEPTH})`, parseDepth)
    .action(async (file: string, opts: IdentityOptions, command: Command) => {
      if (opts.golden !== undefined) {
        if (command.args.length > 0 || opts.canonical === true || opts.maxDepth !== undefined) {
          throw new CliError(EXIT.badInput, '--golden FILE checks a golden file on its own: drop the context file, --canonical and --max-depth.');
        }
        const { text, exitCode } = goldenReport(opts.golden);
        process.stdout.write(text);
        process.exitCode = exitCode;
        return;
      }
      process.stdout.write(identityOutput(await readInput(file), file === '-' ? 'stdin' : file, opts));
    });
}

/** The command's stdout for one context text; throws CliError (2: unparsable, 1: context_invalid). */
export function identityOutput(text: string, source: string, opts: IdentityOptions = {}): string {
  let ctx: unknown;
  try {
    ctx = parseJsonText(text);
  } catch (error) {
    if (error instanceof RangeError) {
      throw new CliError(EXIT.failed, `host_error:context_invalid: ${source} nests too deeply for the JSON parser; flatten it (§12.3)`);
    }
    throw new CliError(EXIT.badInput, `${source} is not valid JSON: ${(error as Error).message}. Pass one AgentContext object as JSON text.`);
  }
  let canonical: string;
  try {
    canonical = canonicalProjection(ctx, { maxDepth: opts.maxDepth ?? DEFAULT_MAX_DEPTH });
  } catch (error) {
    if (error instanceof ContextInvalidError) throw new CliError(EXIT.failed, `${error.reason}: ${source}: ${error.remediation}`);
    throw error;
  }
  // --canonical prints the bytes exactly, nothing after them, so `| sha256sum` reproduces the identity's hex.
  return opts.canonical === true ? canonical : `${sha256Hex(canonical)}\n`;
}

async function readInput(file: string): Promise<string> {
  try {
    let bytes: Buffer;
    if (file !== '-') bytes = readFileSync(file);
    else {
      // A stream read: readFileSync(0) fails with EAGAIN on non-blocking pipes.
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      bytes = Buffer.concat(chunks);
    }
    // Strict: a lenient decode would hash U+FFFD in place of a bad byte and print a wrong identity.
    // RFC 8259 §8.1 lets a parser ignore a byte order mark; the identity is of the parsed value.
    return decodeUtf8(bytes).replace(/^\uFEFF/, '');
  } catch (error) {
    if (error instanceof Utf8Error) throw new CliError(EXIT.badInput, `${file === '-' ? 'stdin' : file}: ${error.message}. Re-save the context as UTF-8.`);
    const code = (error as NodeJS.ErrnoException).code;
    const what = file === '-' ? 'stdin' : file;
    throw new CliError(EXIT.badInput, `cannot read ${what}${code ? ` (${code})` : ''}: pass an AgentContext JSON file, or - to read stdin.`);
  }
}

function parseDepth(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new CliError(EXIT.badInput, `--max-depth must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
}
