// npm run mutation -- --audit FILES: every `// Stryker disable|restore` directive of FILES re-checked against a run
// without it. Stryker runs over FILES in a copy of this checkout whose FILES have their directives blanked (each
// directive line keeps its place, so every mutant keeps its location), and each mutant the directives would have
// disabled is listed with what the suite did to it: a disabled mutant the suite kills is a wrong disable.
// Output: reports/mutation/audit-files.json and .md (or --audit-out NAME: reports/mutation/NAME.json/.md). The run is
// checkpointed and incremental (tmp/audit-checkout/reports/): a stopped audit started again resumes where it stopped.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { mutationScore } from './report.mjs';

/** Stryker's directive grammar (a line comment): disable|restore, optionally next-line, `all` or mutator names, a reason. */
const DIRECTIVE = /\/\/\s?Stryker (disable|restore)(?: (next-line))? ([A-Za-z, ]+?)(?::|$)/;

/**
 * This suite's variant directive, for a line where a mutator's variants differ: `// Stryker equivalent next-line
 * Mutator `replacement` [@column]: reason` names one variant only (at that column, when the line has the same variant twice) (Stryker reads no such directive and tests the mutant; the
 * report marks it Ignored when it survives, mutation/run.mjs, and counts it killed when it is: then it is wrong).
 */
const EQUIVALENT = /\/\/\s?Stryker equivalent next-line ([A-Za-z]+)(?: `([^`]*)`)?(?: @(\d+)(?:-(\d+))?)?:/;

/** The variant directives of a source: line, target line, mutator (lower case), replacement, text. */
export function equivalentsOf(source) {
  const out = [];
  const lines = source.split('\n');
  lines.forEach((text, i) => {
    const m = EQUIVALENT.exec(text);
    if (!m) return;
    let target = i + 1;
    while (target < lines.length && /^\s*\/\//.test(lines[target])) target++;
    out.push({ line: i + 1, target: target + 1, mutator: m[1].toLowerCase(), ...(m[2] !== undefined ? { replacement: m[2] } : {}), ...(m[3] ? { column: Number(m[3]) } : {}), ...(m[4] ? { endColumn: Number(m[4]) } : {}), text: text.trim() });
  });
  return out;
}

/** The variant directive naming this very mutant, if any. */
export const equivalentDirective = (equivalents, mutant) =>
  equivalents.find((e) => e.target === mutant.location.start.line && (e.column === undefined || e.column === mutant.location.start.column) && (e.endColumn === undefined || e.endColumn === mutant.location.end?.column) && e.mutator === mutant.mutatorName.toLowerCase() && (e.replacement === undefined || e.replacement === mutant.replacement.replace(/\s+/g, ' ')));

/** The directives of a source, in order: line (1-based), kind, next-line or not, the mutator names (lower case). */
export function directivesOf(source) {
  const out = [];
  const lines = source.split('\n');
  lines.forEach((text, i) => {
    const m = DIRECTIVE.exec(text);
    if (!m) return;
    // A next-line directive is a leading comment of the node after it: it covers that node's line, past further comment lines.
    let target = i + 1;
    while (target < lines.length && /^\s*\/\//.test(lines[target])) target++;
    out.push({ line: i + 1, target: target + 1, kind: m[1], nextLine: m[2] !== undefined, mutators: m[3].split(',').map((s) => s.trim().toLowerCase()).filter(Boolean), text: text.trim() });
  });
  return out;
}

/** The source with every directive blanked in place (its line stays, so no mutant moves). */
export function withoutDirectives(source) {
  return source
    .split('\n')
    .map((text) => (DIRECTIVE.test(text) ? text.replace(/\/\/\s?Stryker .*$/, '// (a Stryker directive, ignored by the audit)') : text))
    .join('\n');
}

/**
 * The directive that disables a mutant (Stryker's reading: a next-line directive covers the mutants starting on the
 * line after it; a block one, every mutant starting after it until a restore naming the mutator or `all`), or
 * undefined when none does.
 */
export function disablingDirective(directives, mutant) {
  const { line } = mutant.location.start;
  const name = mutant.mutatorName.toLowerCase();
  const names = (d) => d.mutators.includes('all') || d.mutators.includes(name);
  let by;
  for (const d of directives) {
    if (d.nextLine || d.line >= line || !names(d)) continue;
    by = d.kind === 'disable' ? d : undefined;
  }
  for (const d of directives) if (d.nextLine && d.target === line && names(d)) by = d.kind === 'disable' ? d : undefined;
  return by;
}

const detected = (m) => m.status === 'Killed' || m.status === 'Timeout';

/** The audit of a directive-free run: per file, the score, and every disabled mutant with its status. */
export function auditOf(report, sources) {
  const files = {};
  for (const [file, f] of Object.entries(report.files)) {
    const directives = directivesOf(sources[file]);
    const equivalents = equivalentsOf(sources[file]);
    const disabled = [];
    for (const m of f.mutants) {
      const d = disablingDirective(directives, m) ?? equivalentDirective(equivalents, m);
      if (d) disabled.push({ line: m.location.start.line, column: m.location.start.column, ...(m.location.end ? { end_column: m.location.end.column } : {}), mutator: m.mutatorName, replacement: m.replacement, status: m.status, ...(m.killedBy?.length ? { killed_by: m.killedBy } : {}), directive_line: d.line, directive: d.text });
    }
    const score = mutationScore({ files: { [file]: f } });
    files[file] = {
      score: Number(score.score.toFixed(1)),
      mutants: f.mutants.length,
      valid: score.valid,
      detected: score.detected,
      disabled: disabled.length,
      // A kill is proof the disable is wrong; a timeout on a loaded machine is not (it goes to a rerun, not to --audit-apply).
      disabled_killed: disabled.filter((m) => m.status === 'Killed'),
      disabled_timed_out: disabled.filter((m) => m.status === 'Timeout'),
      disabled_surviving: disabled.filter((m) => !detected(m)),
    };
  }
  const all = mutationScore(report);
  return { score: Number(all.score.toFixed(1)), detected: all.detected, valid: all.valid, files };
}

/** The audit as Markdown: the scores, then each wrong disable (a disabled mutant the suite kills). */
export function auditMarkdown(audit, tests) {
  const name = (id) => tests.get(id) ?? id;
  const lines = ['# Disables audited: a Stryker run with every directive ignored', '', `Score with directives ignored: **${audit.score}%** (${audit.detected} of ${audit.valid} valid mutants detected).`, '', '| file | score without directives | mutants | disabled | disabled, killed | disabled, timed out | disabled, surviving |', '| --- | --- | --- | --- | --- | --- | --- |'];
  for (const [file, f] of Object.entries(audit.files)) lines.push(`| \`${file}\` | ${f.score}% | ${f.mutants} | ${f.disabled} | ${f.disabled_killed.length} | ${f.disabled_timed_out.length} | ${f.disabled_surviving.length} |`);
  lines.push('', '## Disabled mutants the suite kills (each such disable is wrong)', '');
  for (const [file, f] of Object.entries(audit.files)) {
    for (const m of f.disabled_killed) lines.push(`- \`${file}:${m.line}:${m.column}\` ${m.mutator} → \`${m.replacement.replace(/\s+/g, ' ').slice(0, 60)}\`: ${m.status}${m.killed_by ? ` by ${name(m.killed_by[0])}` : ''} (directive line ${m.directive_line})`);
  }
  return lines.join('\n') + '\n';
}

/**
 * Copies the checkout for a directive-free run: what the suite needs, node_modules linked, FILES without their
 * directives (`dir`: tmp/audit-checkout for --audit, tmp/mutation-checkout for the whole run, mutation/run.mjs).
 */
export function auditCopy(root, files, dir = 'tmp/audit-checkout') {
  const copy = path.join(root, dir);
  // A stopped run resumes: its checkpoint and incremental file (the copy's reports/) outlive the copy.
  const kept = path.join(root, `${dir}-reports`);
  rmSync(kept, { recursive: true, force: true });
  if (existsSync(path.join(copy, 'reports'))) cpSync(path.join(copy, 'reports'), kept, { recursive: true });
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  if (existsSync(kept)) cpSync(kept, path.join(copy, 'reports'), { recursive: true });
  for (const entry of ['src', 'mutation', 'vectors', 'schema', 'scripts', 'bin', 'package.json', 'tsconfig.json', 'stryker.config.mjs', 'HARNESS.md', 'READINGS.md']) {
    if (existsSync(path.join(root, entry))) cpSync(path.join(root, entry), path.join(copy, entry), { recursive: true });
  }
  symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'));
  const sources = Object.fromEntries(files.map((f) => [f, readFileSync(path.join(root, f), 'utf8')]));
  for (const file of files) writeFileSync(path.join(copy, file), withoutDirectives(sources[file]));
  writeFileSync(path.join(copy, 'audit-sources.json'), JSON.stringify(sources)); // the directives, as the run started
  return copy;
}

/** Runs the audit over FILES and writes its report (outName.json / .md under reports/mutation/). */
export function runAudit(root, files, outName = 'audit-files') {
  for (const file of files) if (!existsSync(path.join(root, file))) throw new Error(`mutation --audit: no file ${file}`);
  const sources = Object.fromEntries(files.map((f) => [f, readFileSync(path.join(root, f), 'utf8')]));
  const copy = auditCopy(root, files);
  console.log(`mutation --audit: ${files.length} file(s), directives ignored, in ${path.relative(root, copy)}`);
  const r = spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs'], { cwd: copy, stdio: 'inherit', env: { ...process.env, CTK_MUTATION_AUDIT: files.join(',') } });
  if (r.status !== 0) throw new Error(`mutation --audit: stryker exited with ${r.status ?? r.signal}`);
  const report = JSON.parse(readFileSync(path.join(copy, 'reports/mutation/audit-run.json'), 'utf8'));
  const audit = auditOf(report, sources);
  const tests = new Map(Object.values(report.testFiles ?? {}).flatMap((f) => f.tests.map((t) => [t.id, t.name])));
  for (const f of Object.values(audit.files)) for (const m of f.disabled_killed) if (m.killed_by) m.killed_by = m.killed_by.map((id) => tests.get(id) ?? id);
  mkdirSync(path.join(root, 'reports/mutation'), { recursive: true });
  writeFileSync(path.join(root, `reports/mutation/${outName}.json`), JSON.stringify(audit, null, 1) + '\n');
  writeFileSync(path.join(root, `reports/mutation/${outName}.md`), auditMarkdown(audit, new Map()));
  const wrong = Object.values(audit.files).reduce((n, f) => n + f.disabled_killed.length, 0);
  console.log(`mutation --audit: ${audit.score}% with directives ignored (${audit.detected} of ${audit.valid}); ${wrong} disabled mutant(s) the suite kills: reports/mutation/${outName}.md`);
  return audit;
}

/**
 * The audit from the run's checkpoint (mutation/checkpoint-reporter.mjs) while or after it runs: every mutant tested
 * so far. A partial audit says how many of the instrumented mutants it covers; the score is over those.
 */
export function auditFromCheckpoint(root, files, outName = 'audit-files') {
  const copy = path.join(root, 'tmp/audit-checkout');
  const file = path.join(copy, 'reports/mutation/audit.incremental.checkpoint.jsonl');
  if (!existsSync(file)) throw new Error(`mutation --audit-partial: no checkpoint at ${path.relative(root, file)} (start the audit first)`);
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const tests = lines.find((l) => l.kind === 'tests')?.tests ?? [];
  const report = { files: Object.fromEntries(files.map((f) => [f, { mutants: [] }])) };
  for (const l of lines) {
    if (l.kind !== 'mutant' || !report.files[l.file]) continue;
    report.files[l.file].mutants.push({ ...l, killedBy: l.killedBy?.map((i) => tests[i]?.name ?? String(i)) });
  }
  // The copy's sources have their directives blanked: the directives are read from the sources as the run started.
  const sources = JSON.parse(readFileSync(path.join(copy, 'audit-sources.json'), 'utf8'));
  const audit = auditOf(report, sources);
  const done = lines.some((l) => l.kind === 'done');
  audit.tested = Object.values(report.files).reduce((n, f) => n + f.mutants.length, 0);
  audit.complete = done;
  writeFileSync(path.join(root, `reports/mutation/${outName}.json`), JSON.stringify(audit, null, 1) + '\n');
  writeFileSync(path.join(root, `reports/mutation/${outName}.md`), auditMarkdown(audit, new Map()).replace('\n\nScore', `\n\n${done ? '' : `Partial: the ${audit.tested} mutants tested when the run was read. `}Score`));
  const wrong = Object.values(audit.files).reduce((n, f) => n + f.disabled_killed.length, 0);
  console.log(`mutation --audit-partial: ${audit.tested} mutants tested${done ? ' (complete)' : ''}; ${audit.score}% with directives ignored; ${wrong} disabled mutant(s) the suite kills`);
  return audit;
}

/** A directive's own words: its mutator list as written and its reason. */
function partsOf(text) {
  const m = /\/\/\s?Stryker (?:disable|restore)(?: next-line)? ([A-Za-z, ]+?)(?::\s*(.*))?$/.exec(text);
  return { names: m ? m[1].split(',').map((s) => s.trim()).filter(Boolean) : [], reason: m?.[2] ?? '' };
}

const indentOf = (line) => /^\s*/.exec(line)[0];
const same = (a, b) => a.toLowerCase() === b.toLowerCase();
/** A variant directive can name a replacement on one line without a backquote. */
const nameable = (r) => !r.includes('`') && r.length <= 80;

/**
 * The directives of one source rewritten after its audit: a mutator the suite kills somewhere under a directive is no
 * longer disabled there; where it kills one variant of a mutator on a line and another survives, the survivor is named
 * alone (a variant directive); a block directive that hid a killed mutant gives way to next-line directives over its
 * survivors. Only comments change. Returns the new source and what was done.
 */
export function applyAuditToSource(source, fileAudit, known = []) {
  const lines = source.split('\n');
  const killed = fileAudit.disabled_killed;
  // A timed-out mutant keeps its disable until a rerun decides it (it counts as a survivor here), and so does every
  // disabled mutant a partial audit has not tested yet (`known`: the mutants of an earlier report of this source).
  const tested = [...killed, ...fileAudit.disabled_surviving, ...(fileAudit.disabled_timed_out ?? [])];
  const key = (m) => `${m.line}:${m.column}:${m.mutator}:${m.replacement}`;
  const seen = new Set(tested.map(key));
  const directives = directivesOf(source);
  const untested = known.flatMap((m) => {
    const entry = { line: m.location.start.line, column: m.location.start.column, mutator: m.mutatorName, replacement: m.replacement };
    const d = disablingDirective(directives, m);
    return d && !seen.has(key(entry)) ? [{ ...entry, status: 'untested', directive_line: d.line }] : [];
  });
  const surviving = [...fileAudit.disabled_surviving, ...(fileAudit.disabled_timed_out ?? []), ...untested];
  const wrongLines = [...new Set(killed.map((m) => m.directive_line))];
  const ops = []; // { index, remove, insert }
  const log = [];
  const flat = (r) => r.replace(/\s+/g, ' ');
  /** One variant directive per surviving variant, at its column. */
  const variantLines = (indent, entries, killedHere, reason) => {
    const seen = new Set();
    const out = [];
    for (const m of entries) {
      // Always at its place (columns, end too: two mutants can start at one column, an operand and its expression),
      // since a line can hold the same variant again outside this directive; a replacement with a backquote unnamed.
      const at = ` @${m.column}${m.end_column !== undefined ? `-${m.end_column}` : ''}`;
      const line = `${indent}// Stryker equivalent next-line ${m.mutator}${nameable(m.replacement) ? ` \`${flat(m.replacement)}\`` : ''}${at}: ${reason}`;
      if (!seen.has(line)) out.push(line);
      seen.add(line);
    }
    return out;
  };
  /** For one target line: the next-line directive and variant directives over its survivors. */
  const overLine = (indent, names, survivors, killedHere, reason) => {
    const keep = [];
    const variants = [];
    for (const name of names) {
      const s = survivors.filter((m) => same(m.mutator, name));
      const k = killedHere.filter((m) => same(m.mutator, name));
      if (s.length === 0) continue; // every variant killed (or none here): no longer disabled
      if (k.length === 0) keep.push(name);
      else variants.push(...s);
    }
    return [...(keep.length ? [`${indent}// Stryker disable next-line ${keep.join(',')}: ${reason}`] : []), ...variantLines(indent, variants, killedHere, reason)];
  };
  for (const line of wrongLines) {
    const text = lines[line - 1];
    const { names, reason } = partsOf(text);
    const mine = (m) => m.directive_line === line;
    const k = killed.filter(mine);
    const s = surviving.filter(mine);
    if (/Stryker equivalent next-line/.test(text)) {
      // It named a killed mutant as well (a twin at the same start): each survivor it named gets a precise one.
      const reason = text.replace(/^\/\/\s?Stryker equivalent next-line [A-Za-z]+(?: `[^`]*`)?(?: @\d+(?:-\d+)?)?:\s*/, '');
      const insert = variantLines(indentOf(lines[line - 1]), s, k, reason);
      ops.push({ index: line - 1, remove: 1, insert });
      log.push(`line ${line}: variant directive ${insert.length ? 'narrowed' : 'removed'} (its mutant is killed)`);
    } else if (/Stryker disable next-line/.test(text)) {
      const all = names.some((n) => same(n, 'all')) ? [...new Set([...k, ...s].map((m) => m.mutator))] : names;
      const insert = overLine(indentOf(text), all, s, k, reason);
      ops.push({ index: line - 1, remove: 1, insert });
      log.push(`line ${line}: ${names.join(',')} → ${insert.length ? insert.map((l) => l.trim().replace(/:.*$/, '')).join(' + ') : 'removed'} (${k.length} killed, ${s.length} surviving)`);
    } else {
      // A block directive: removed with its restore; its survivors get next-line directives of their own.
      ops.push({ index: line - 1, remove: 1, insert: [] });
      const restore = lines.findIndex((l, i) => i >= line && /\/\/\s?Stryker restore/.test(l) && !/next-line/.test(l) && partsOf(l).names.map((n) => n.toLowerCase()).sort().join() === names.map((n) => n.toLowerCase()).sort().join());
      if (restore >= 0) ops.push({ index: restore, remove: 1, insert: [] });
      const byLine = new Map();
      for (const m of [...s, ...k]) byLine.set(m.line, [...(byLine.get(m.line) ?? []), m]);
      let covered = 0;
      for (const [target, here] of byLine) {
        const sv = here.filter((m) => s.includes(m));
        if (sv.length === 0) continue;
        // A leading comment of a `}` or an `else` attaches to nothing (Stryker would not apply it): left for a hand.
        if (/^\s*(\}|else\b)/.test(lines[target - 1])) {
          log.push(`  line ${target}: survivors under a closing brace or else, no directive placed: ${sv.map((m) => `${m.mutator} \`${m.replacement}\``).join(', ')}`);
          continue;
        }
        const insert = overLine(indentOf(lines[target - 1]), [...new Set(sv.map((m) => m.mutator))], sv, here.filter((m) => k.includes(m)), reason);
        ops.push({ index: target - 1, remove: 0, insert });
        covered++;
      }
      log.push(`line ${line}: block ${names.join(',')} removed${restore >= 0 ? ` with its restore (line ${restore + 1})` : ''}; ${covered} line(s) of survivors get next-line directives (${k.length} killed, ${s.length} surviving)`);
    }
  }
  // Bottom-up, a removal before an insertion at the same index (so the inserted lines stay above their target).
  ops.sort((a, b) => b.index - a.index || a.remove - b.remove);
  for (const op of ops) lines.splice(op.index, op.remove, ...op.insert);
  return { source: lines.join('\n'), log };
}

/** `--audit-apply NAME`: every audited file's directives rewritten from reports/mutation/NAME.json. */
export function applyAudit(root, name = 'audit-files') {
  const audit = JSON.parse(readFileSync(path.join(root, `reports/mutation/${name}.json`), 'utf8'));
  // A partial audit has not tested every disabled mutant: the committed report's mutants of the same source stand in
  // for the untested ones (kept disabled).
  const committed = existsSync(path.join(root, 'reports/mutation/mutation.json')) ? JSON.parse(readFileSync(path.join(root, 'reports/mutation/mutation.json'), 'utf8')) : { files: {} };
  for (const [file, f] of Object.entries(audit.files)) {
    if (f.disabled_killed.length === 0) continue;
    const current = readFileSync(path.join(root, file), 'utf8');
    const before = committed.files[file];
    const lines = current.split('\n');
    const agree = before?.source.split('\n');
    const known = (before?.mutants ?? []).filter((m) => agree[m.location.start.line - 1] === lines[m.location.start.line - 1]);
    if (audit.complete === false && !before) throw new Error(`mutation --audit-apply: ${file}: a partial audit needs the committed report's mutants of the file`);
    const { source, log } = applyAuditToSource(current, f, audit.complete === false ? known : []);
    writeFileSync(path.join(root, file), source);
    console.log(`${file}:\n  ${log.join('\n  ')}`);
  }
}

/** A full-line directive (or the blank the copy leaves in its place): a line that holds no mutant. */
const DIRECTIVE_LINE = /^\s*\/\/\s?(Stryker (disable|restore|equivalent)\b|\(a Stryker directive, ignored by the audit\))/;

/**
 * Where each line of `before` is in `after`, two texts of one source that differ only in full-line directives (the
 * audit's rewrite): a Map from line (1-based) to line; undefined when anything else differs (the code changed).
 */
export function lineMapping(before, after) {
  const code = (text) => text.split('\n').flatMap((l, i) => (DIRECTIVE_LINE.test(l) ? [] : [{ l, n: i + 1 }]));
  const a = code(before);
  const b = code(after);
  if (a.length !== b.length || a.some((x, i) => x.l !== b[i].l)) return undefined;
  return new Map(a.map((x, i) => [x.n, b[i].n]));
}

/** A report's mutants moved to the lines of `source` (lineMapping), with that source. */
export function movedTo(file, f, source) {
  const map = lineMapping(f.source, source);
  if (!map) throw new Error(`mutation: ${file} changed in more than its Stryker directives since the run: rerun npm run mutation`);
  const at = (loc) => ({ line: map.get(loc.line) ?? loc.line, column: loc.column });
  return { ...f, source, mutants: f.mutants.map((m) => ({ ...m, location: { start: at(m.location.start), end: at(m.location.end) } })) };
}

/** A directive's reason (the text after its mutator list). */
const reasonOf = (text) => /\/\/\s?Stryker (?:disable|restore)(?: next-line)? [A-Za-z, ]+?(?::\s*(.*))?$/.exec(text)?.[1] ?? '';

/**
 * The report as Stryker would write it with the directives in force, from the run that ignored them (mutation/run.mjs
 * runs every mutant): a mutant a directive disables is Ignored with the directive's reason, unless the suite kills it
 * (then the directive is wrong: the mutant counts as killed, and the audit lists it). Variant directives
 * (`Stryker equivalent`) likewise, in mutation/run.mjs withEquivalentsIgnored.
 */
export function withDirectivesApplied(report) {
  const files = {};
  for (const [file, f] of Object.entries(report.files)) {
    const directives = directivesOf(f.source ?? '');
    files[file] = directives.length === 0 ? f : { ...f, mutants: f.mutants.map((m) => {
      const d = m.status === 'Killed' ? undefined : disablingDirective(directives, m);
      return d ? { ...m, status: 'Ignored', statusReason: reasonOf(d.text) } : m;
    }) };
  }
  return { ...report, files };
}
