// Mutation testing of the reference host and the spec core (npm run mutation): Stryker mutates src/host and
// src/core, builds the sandbox (mutation/tsconfig.json: emit only), and the only test command is the CTK suite run
// in-process (mutation/suite.mjs) against the buffered and the incremental reference configurations, a host built on
// the hook session, the reference under the non-default postures (on the posture-dependent vectors) and the reference
// under a non-default conversation layout (the one a layout-gated vector names), with the CTK's own checking never
// mutated. Unit tests never kill a mutant here. Report: reports/mutation/.
import { chunkFiles, chunkMutate } from './mutation/chunks.mjs';

const MUTATE = [
    'src/host/**/*.ts',
    'src/core/**/*.ts',
    '!src/**/*.test.ts',
    '!src/**/*.test.util.ts',
    '!src/core/generated/**',
];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  mutate: MUTATE,
  testRunner: 'mocha',
  mochaOptions: { spec: ['mutation/suite.mjs'] },
  buildCommand: 'tsc -p mutation/tsconfig.json',
  coverageAnalysis: 'perTest',
  // Bail at the first failing vector (Stryker's default, stated): one failing vector on one host kills the mutant.
  disableBail: false,
  // 2 cores shared with other work: at most two workers, each running the suite in one process.
  concurrency: 2,
  timeoutMS: 5_000,
  timeoutFactor: 1.5,
  dryRunTimeoutMinutes: 15,
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  tempDirName: 'tmp/stryker',
  cleanTempDir: 'always',
  // Only what the suite needs goes into the sandbox (node_modules is symlinked; the suite never imports a package
  // of this repository by name, mutation/session-host.mjs).
  ignorePatterns: ['dist', 'integrations', 'examples', 'bench', 'golden', 'reports', 'tmp', '.node24', '.tap', '.venv-hosts', '.ci'],
  // checkpoint: every result is kept as it is tested, so a stopped run resumes (mutation/checkpoint-reporter.mjs).
  plugins: ['@stryker-mutator/*', './mutation/checkpoint-reporter.mjs'],
  reporters: ['clear-text', 'progress', 'json', 'html', 'checkpoint'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0, reportScoreTable: true },
  thresholds: { high: 90, low: 85, break: null },
};

// One chunk of the run (mutation/run.mjs sets CTK_MUTATION_CHUNK): its files only, its own report and incremental file.
const chunk = process.env.CTK_MUTATION_CHUNK;
// The audit (mutation/audit.mjs, in a copy whose files have their directives blanked): those files, one report,
// checkpointed and incremental like a chunk, so that a stopped audit resumes.
const audit = process.env.CTK_MUTATION_AUDIT;
export default audit
  ? {
      ...config,
      mutate: audit.split(','),
      incrementalFile: 'reports/mutation/audit.incremental.json',
      tempDirName: 'tmp/stryker-audit',
      reporters: ['progress', 'json', 'checkpoint'],
      jsonReporter: { fileName: 'reports/mutation/audit-run.json' },
    }
  : chunk
  ? {
      ...config,
      mutate: chunkMutate(chunk, MUTATE),
      incrementalFile: chunkFiles(chunk).incremental,
      tempDirName: `tmp/stryker-${chunk}`,
      reporters: ['progress', 'json', 'checkpoint'],
      jsonReporter: { fileName: chunkFiles(chunk).report },
    }
  : config;
