#!/usr/bin/env node
// Thin launcher: the CLI lives in dist/src/cli/main.js (built by `npm run build`, run by `prepare`).
import { main } from '../dist/src/cli/main.js';

process.exitCode = await main(process.argv);
