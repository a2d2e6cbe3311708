// A Stryker reporter that makes a mutation run resumable (npm run mutation, stryker.config.mjs). Stryker writes its
// incremental file only when a run completes, and a full run over src/host and src/core is longer than a working
// session of the 2-core machine: a run stopped half-way would keep nothing. This reporter appends every result to
// a checkpoint file beside the incremental one (reports/mutation/stryker-incremental.checkpoint.jsonl) the moment a mutant is tested (with the tests that covered and killed it, and the
// sources it mutated, as the run started); mutation/resume.mjs folds that into the incremental file before the next
// run, which then tests only what is left (Stryker's incremental rules decide what can be reused).
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';
import { mutatedSources } from './report.mjs';
import { checkpointOf, resume } from './resume.mjs';

class CheckpointReporter {
  static inject = ['options'];
  constructor(options) {
    this.root = process.cwd();
    this.file = path.join(this.root, checkpointOf(options.incrementalFile));
    mkdirSync(path.dirname(this.file), { recursive: true });
    // A checkpoint left by a stopped run is folded before this run starts a new one (npm run mutation folds it
    // first, so this run reuses it; a bare `stryker run` keeps it for the next run).
    resume(this.root, options.incrementalFile);
    writeFileSync(this.file, JSON.stringify({ kind: 'start', at: new Date().toISOString(), sources: mutatedSources(this.root) }) + '\n');
  }
  onDryRunCompleted({ result }) {
    const tests = result.tests.map((t) => ({ id: t.id, name: t.name }));
    // A mutant's tests are written as indexes into this list (a covered mutant names most of the suite's tests).
    this.index = new Map(tests.map((t, i) => [t.id, i]));
    appendFileSync(this.file, JSON.stringify({ kind: 'tests', tests }) + '\n');
  }
  onMutantTested(r) {
    const file = path.relative(this.root, r.fileName).split(path.sep).join('/');
    const { id, mutatorName, replacement, location, status, statusReason, static: isStatic, testsCompleted, killedBy, coveredBy } = r;
    const refs = (ids) => ids?.map((t) => this.index?.get(t) ?? t);
    appendFileSync(this.file, JSON.stringify({ kind: 'mutant', file, id, mutatorName, replacement, location, status, statusReason, static: isStatic, testsCompleted, killedBy: refs(killedBy), coveredBy: refs(coveredBy) }) + '\n');
  }
  onMutationTestReportReady() {
    // The run completed: Stryker writes the incremental file itself, so the checkpoint has nothing left to add.
    if (existsSync(this.file)) appendFileSync(this.file, JSON.stringify({ kind: 'done', at: new Date().toISOString() }) + '\n');
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'checkpoint', CheckpointReporter)];
