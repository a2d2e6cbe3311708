#!/usr/bin/env node
// Thin launcher. `npm run build` (run by `prepare`) compiles the CLI to dist/src/cli/main.js and bundles it into
// dist/cli/ (scripts/bundle-cli.mjs), which starts faster: dist/cli/run/main.js for the run command, dist/cli/main.js
// for every other. A bundle is used unless tsc has written dist/src/ since it was made (a bare `tsc -p tsconfig.json`
// rebuild): then it is stale and dist/src/ runs instead.
import { statSync } from 'node:fs';

// A reader that stops early (`… | head`) closes the pipe: the output is cut where it chose, never a stack trace, and
// the exit code stays the command's own (a run still fails or passes by what it checked).
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
  });
}

const mtime = (rel) => statSync(new URL(rel, import.meta.url), { throwIfNoEntry: false })?.mtimeMs;
const compiled = mtime('../dist/src/cli/main.js');
const current = (rel) => {
  const bundled = mtime(rel);
  return bundled !== undefined && (compiled === undefined || bundled >= compiled);
};
// The command the arguments run, by cli/main.ts commandOf's rule: the first operand, or the one after `help`.
const operands = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const command = operands[0] === 'help' ? operands[1] : operands[0];

if (command === 'run' && current('../dist/cli/run/main.js')) {
  const { runMain } = await import('../dist/cli/run/main.js');
  process.exitCode = await runMain(process.argv);
} else {
  const { main } = await (current('../dist/cli/main.js') ? import('../dist/cli/main.js') : import('../dist/src/cli/main.js'));
  process.exitCode = await main(process.argv);
}
