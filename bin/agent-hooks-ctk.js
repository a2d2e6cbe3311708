#!/usr/bin/env node
// Thin launcher. `npm run build` (run by `prepare`) compiles the CLI to dist/src/cli/main.js and bundles it into
// dist/cli/ (scripts/bundle-cli.mjs), which starts faster. The bundle is used unless tsc has written dist/src/
// since it was made (a bare `tsc -p tsconfig.json` rebuild): then the bundle is stale and dist/src/ runs instead.
import { statSync } from 'node:fs';

const mtime = (rel) => statSync(new URL(rel, import.meta.url), { throwIfNoEntry: false })?.mtimeMs;
const bundled = mtime('../dist/cli/main.js');
const compiled = mtime('../dist/src/cli/main.js');
const { main } = await (bundled !== undefined && (compiled === undefined || bundled >= compiled) ? import('../dist/cli/main.js') : import('../dist/src/cli/main.js'));

process.exitCode = await main(process.argv);
