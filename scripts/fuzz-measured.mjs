// FUZZ.md "Measured": `fuzz` against every framework integration and the Python hosts, each against its own
// harness and the layout it declares, then every written vector checked again, outside the fuzzer, by `run`:
//   1. on the default reference host (`run --vectors DIR`, no harness): it passes, or is skipped by the layout it
//      states (skip_gate "layout") or by the host's non-default postures it states (skip_gate "posture");
//   2. on the reference host under the host's declared layout and postures (the oracle `fuzz` compares with, loaded
//      as an in-process harness from the host's own describe()): it passes.
// It also runs each vector on the host (informational: a vector the grammar cannot pin passes there, FUZZ.md).
// Prints a Markdown table; exits 1 when a written vector fails either check, when a group is unconfirmed (the
// reference host fails the vector the fuzzer would write), or when a host's fuzz run errs (exit 2 or 3).
//
//   npm run build && node scripts/fuzz-measured.mjs [--runs 1000] [--seed 1] [--jobs 2] [--only NAME…] [--out DIR]
//
// Node: a framework whose release needs a newer Node than this one (integrations/frameworks.ts) makes every CLI run
// use Node 24 from scripts/node24.sh. Python hosts run from .venv-hosts (.ci/setup-python-hosts.sh); a host whose
// interpreter is missing is reported as not run (and fails the script).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'agent-hooks-ctk.js');
const DIST = path.join(ROOT, 'dist');
const VENV_PYTHON = path.join(ROOT, '.venv-hosts', 'bin', 'python');

function parseArgs(argv) {
  const o = { runs: '1000', seed: '1', jobs: '2', out: path.join(ROOT, 'tmp', 'fuzz-measured'), only: undefined, timeout: undefined, hangTimeout: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) fail(`${a}: a value is missing`);
      return v;
    };
    if (a === '--runs') o.runs = value();
    else if (a === '--seed') o.seed = value();
    else if (a === '--jobs') o.jobs = value();
    else if (a === '--out') o.out = path.resolve(value());
    else if (a === '--timeout') o.timeout = value();
    else if (a === '--hang-timeout') o.hangTimeout = value();
    else if (a === '--only') {
      o.only = [];
      while (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) o.only.push(argv[++i]);
    } else fail(`unknown option ${a} (options: --runs N --seed N --jobs N --only NAME… --out DIR --timeout MS --hang-timeout MS)`);
  }
  return o;
}

function fail(message) {
  process.stderr.write(`fuzz-measured: ${message}\n`);
  process.exit(2);
}

const olderThan = (want, have) => {
  const a = want.split('.').map(Number);
  const b = have.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((b[i] ?? 0) !== (a[i] ?? 0)) return (b[i] ?? 0) < (a[i] ?? 0);
  return false;
};

/** Every host this measures: the framework integrations (the registry, built), then the Python hosts. */
async function hosts() {
  const registry = path.join(DIST, 'integrations', 'frameworks.js');
  if (!existsSync(registry)) fail(`no build at ${path.relative(ROOT, registry)}: run \`npm run build\` first`);
  const { FRAMEWORKS } = await import(pathToFileURL(registry).href);
  const ts = FRAMEWORKS.map((fw) => ({
    name: fw.name,
    label: `${fw.name} (in-process)`,
    args: ['--harness', path.join(ROOT, 'integrations', fw.name, 'dist', 'ctk-harness.js')],
    choice: { module: path.join(ROOT, 'integrations', fw.name, 'dist', 'ctk-harness.js') },
    node: fw.node?.version,
  }));
  const py = (name, dir, python) => {
    const command = `${JSON.stringify(python)} ${JSON.stringify(path.join(ROOT, dir, 'host.py'))}`;
    return { name, label: `${dir} (stdio)`, args: ['--harness-cmd', command], choice: { command }, python };
  };
  return [
    ...ts,
    py('pydantic-ai', 'integrations/pydantic-ai', VENV_PYTHON),
    py('microsoft-agent-framework', 'integrations/microsoft-agent-framework', VENV_PYTHON),
    // Standard library and the in-tree kit only: the system python3 runs it when the virtualenv is missing.
    py('python-host', 'examples/python-host', existsSync(VENV_PYTHON) ? VENV_PYTHON : 'python3'),
    py('agent-hooks-sdk-python', 'examples/agent-hooks-sdk-python', VENV_PYTHON),
  ];
}

/** The Node binary for every CLI run: this one, unless a selected framework needs a newer one (then Node 24). */
function pickNode(selected) {
  const needs = selected.filter((h) => h.node !== undefined && olderThan(h.node, process.versions.node));
  if (needs.length === 0) return process.execPath;
  const r = spawnSync('bash', [path.join(ROOT, 'scripts', 'node24.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) fail(`${needs.map((h) => h.name).join(', ')} need Node >= ${needs.map((h) => h.node).join('/')} and scripts/node24.sh failed`);
  return r.stdout.trim();
}

/** Runs the CLI (or a node script) with `node`, collecting stdout and stderr; resolves with the exit code. */
function runNode(node, args, { cwd = ROOT, echo = false } = {}) {
  return new Promise((resolve) => {
    const env = { ...process.env, NO_COLOR: '1' };
    delete env.FORCE_COLOR;
    const child = spawn(node, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => {
      err += d;
      if (echo) process.stderr.write(d);
    });
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), out, err }));
  });
}

/**
 * A harness module: the reference host under the host's declared surface (its postures, readings, layout and
 * streaming discipline), as `fuzz` builds its oracle (src/ctk/fuzz/oracle.ts), from the surface file written beside it.
 */
function referenceUnderHostModule(dir, surfaceFile) {
  const file = path.join(dir, 'reference-under-host.mjs');
  const oracle = pathToFileURL(path.join(DIST, 'src', 'ctk', 'fuzz', 'oracle.js')).href;
  writeFileSync(
    file,
    `import { readFileSync } from 'node:fs';\nimport { createOracle } from ${JSON.stringify(oracle)};\n` +
      `const oracle = await createOracle(JSON.parse(readFileSync(${JSON.stringify(surfaceFile)}, 'utf8')));\n` +
      `export const createHarness = () => oracle.create();\n`,
  );
  return file;
}

/** The host's declared surface (as `run` and `fuzz` take it: describe(), validated), written to `file`. */
async function writeSurface(node, host, file) {
  const connect = pathToFileURL(path.join(DIST, 'src', 'harness', 'connect.js')).href;
  const script =
    `import { writeFileSync } from 'node:fs';\nimport { connectHarness, describeSurface, closeHarness } from ${JSON.stringify(connect)};\n` +
    `const c = await connectHarness(${JSON.stringify(host.choice)});\nconst s = await describeSurface(c, undefined, 30000);\n` +
    `writeFileSync(${JSON.stringify(file)}, JSON.stringify(s, null, 2));\nawait closeHarness(c, 10000);\nprocess.exit(0);\n`;
  const r = await runNode(node, ['--input-type=module', '-e', script]);
  if (r.code !== 0 || !existsSync(file)) throw new Error(`could not read the declared surface of ${host.label}: ${r.err.trim().split('\n').slice(-3).join(' ')}`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** `run --vectors DIR` on a host; the results by vector id. */
async function runVectors(node, dir, vectors, harnessArgs, tag, timeout) {
  const out = path.join(dir, `run-${tag}`);
  rmSync(out, { recursive: true, force: true });
  const r = await runNode(node, [BIN, 'run', ...harnessArgs, '--vectors', vectors, '--reporter', 'json', '--out', out, ...(timeout ? ['--timeout', timeout] : [])]);
  const file = path.join(out, 'report.json');
  if (!existsSync(file)) throw new Error(`run on ${tag} wrote no report (exit ${r.code}): ${r.err.trim().split('\n').slice(-3).join(' ')}`);
  return new Map(JSON.parse(readFileSync(file, 'utf8')).results.map((x) => [x.id, x]));
}

async function measure(node, host, o) {
  const dir = path.join(o.out, host.name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const row = { host: host.name, label: host.label, problems: [] };
  if (host.python !== undefined && host.python !== 'python3' && !existsSync(host.python)) {
    row.skipped = `no virtualenv at .venv-hosts (run \`nice -n 19 bash .ci/setup-python-hosts.sh\`)`;
    return row;
  }
  const surface = await writeSurface(node, host, path.join(dir, 'surface.json'));
  row.layout = surface.layout;
  const fuzzOut = path.join(dir, 'fuzz');
  const args = [BIN, 'fuzz', ...host.args, '--runs', o.runs, '--seed', o.seed, '--jobs', o.jobs, '--out', fuzzOut, '--json'];
  if (o.timeout) args.push('--timeout', o.timeout);
  if (o.hangTimeout) args.push('--hang-timeout', o.hangTimeout);
  const load = os.loadavg()[0];
  const started = Date.now();
  const fz = await runNode(node, args);
  row.seconds = (Date.now() - started) / 1000;
  row.load = Math.round(((load + os.loadavg()[0]) / 2) * 10) / 10;
  row.fuzz_exit = fz.code;
  const summaryFile = path.join(fuzzOut, 'fuzz-summary.json');
  if (![0, 1, 3].includes(fz.code) || !existsSync(summaryFile)) {
    row.problems.push(`fuzz exited ${fz.code}: ${fz.err.trim().split('\n').slice(-3).join(' ')}`);
    return row;
  }
  const s = JSON.parse(readFileSync(summaryFile, 'utf8'));
  Object.assign(row, {
    cases: s.cases,
    cases_per_second: s.cases_per_second,
    divergent: s.divergent_cases,
    groups: s.divergences.length,
    self_contradicting: s.self_contradicting_cases,
    unconfirmed: s.unconfirmed.length,
    unstable: s.unstable.length,
    fields: s.divergences.map((d) => `${d.kind === 'self_contradiction' ? 'SELF ' : ''}${d.field} §${d.clause} (${d.count})`),
  });
  if (fz.code === 3) row.problems.push(`fuzz exited 3 (an internal CTK error): ${fz.err.trim().split('\n').slice(-2).join(' ')}`);
  if (s.unconfirmed.length > 0) row.problems.push(`${s.unconfirmed.length} unconfirmed group(s): ${s.unconfirmed.map((u) => `${u.field}: ${u.vector?.check.reference_failure ?? '?'}`).join('; ')}`);
  const vectorsDir = path.join(fuzzOut, 'divergences');
  const files = existsSync(vectorsDir) ? readdirSync(vectorsDir).filter((f) => f.endsWith('.json')) : [];
  row.written = files.length;
  row.ok_default = 0;
  row.ok_host_layout = 0;
  row.fail_on_host = 0;
  if (files.length === 0) return row;
  // The checks, outside the fuzzer: `run` on the written files as a user would run them.
  const streaming = surface.capabilities.includes('incremental_output') ? ['--reference', 'incremental'] : [];
  const plain = await runVectors(node, dir, vectorsDir, streaming, 'default-reference', o.timeout);
  const underHost = await runVectors(node, dir, vectorsDir, ['--harness', referenceUnderHostModule(dir, path.join(dir, 'surface.json'))], 'reference-under-host', o.timeout);
  const onHost = await runVectors(node, dir, vectorsDir, host.args, 'host', o.timeout);
  row.vectors = [];
  for (const f of files) {
    const v = JSON.parse(readFileSync(path.join(vectorsDir, f), 'utf8'));
    const a = plain.get(v.id);
    const b = underHost.get(v.id);
    const h = onHost.get(v.id);
    // A skip counts only when it is by the gate the vector states: its layout, or the host's non-default postures (§13.1).
    const statedGate = (a?.skip_gate === 'layout' && v.layout !== undefined) || (a?.skip_gate === 'posture' && v.postures !== undefined);
    const okDefault = a?.status === 'pass' || (a?.status === 'skip' && statedGate);
    const okHost = b?.status === 'pass';
    if (okDefault) row.ok_default++;
    else row.problems.push(`${v.id}: on the default reference host ${a?.status ?? 'not run'}${a?.reason ? `: ${a.reason}` : ''}`);
    if (okHost) row.ok_host_layout++;
    else row.problems.push(`${v.id}: on the reference host under the host's layout ${b?.status ?? 'not run'}${b?.reason ? `: ${b.reason}` : ''}`);
    if (h?.status === 'fail') row.fail_on_host++;
    row.vectors.push({ id: v.id, layout: v.layout ?? null, postures: v.postures ?? null, default_reference: a?.status, default_skip_gate: a?.skip_gate, reference_under_host: b?.status, host: h?.status, title: v.title });
  }
  return row;
}

const n = (x) => (x === undefined ? '—' : x.toLocaleString('en-US'));

function table(rows) {
  const lines = [
    '| host | divergent cases | groups | self-contradiction cases | written vectors | OK on the default reference host | OK on the reference host under the host\'s layout | fail on the host | unconfirmed / unstable |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of rows) {
    if (r.skipped) {
      lines.push(`| ${r.host} | not run: ${r.skipped} | | | | | | | |`);
      continue;
    }
    if (r.cases === undefined) {
      lines.push(`| ${r.host} | not measured: ${r.problems[0]} | | | | | | | |`);
      continue;
    }
    const pct = r.cases > 0 ? ` (${((100 * r.divergent) / r.cases).toFixed(1)}%)` : '';
    lines.push(`| ${r.host} | ${n(r.divergent)} of ${n(r.cases)}${pct} | ${n(r.groups)} | ${n(r.self_contradicting)} | ${n(r.written)} | ${n(r.ok_default)} of ${n(r.written)} | ${n(r.ok_host_layout)} of ${n(r.written)} | ${n(r.fail_on_host)} of ${n(r.written)} | ${n(r.unconfirmed)} / ${n(r.unstable)} |`);
  }
  return lines.join('\n');
}

const o = parseArgs(process.argv.slice(2));
const all = await hosts();
if (o.only) {
  const unknown = o.only.filter((x) => !all.some((h) => h.name === x));
  if (unknown.length > 0) fail(`--only: unknown host ${unknown.join(', ')} (hosts: ${all.map((h) => h.name).join(', ')})`);
}
const selected = o.only ? all.filter((h) => o.only.includes(h.name)) : all;
const node = pickNode(selected);
const nodeVersion = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
mkdirSync(o.out, { recursive: true });
process.stderr.write(`fuzz-measured: ${selected.length} hosts, ${o.runs} cases each, seed ${o.seed}, ${o.jobs} jobs, Node ${nodeVersion}, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}\n`);
const rows = [];
for (const host of selected) {
  process.stderr.write(`fuzz-measured: ${host.label} …\n`);
  let row;
  try {
    row = await measure(node, host, o);
  } catch (error) {
    row = { host: host.name, label: host.label, problems: [error instanceof Error ? error.message : String(error)] };
  }
  rows.push(row);
  process.stderr.write(`fuzz-measured: ${host.name}: ${row.skipped ?? (row.cases === undefined ? row.problems[0] : `${row.divergent} divergent of ${row.cases}, ${row.groups} groups, ${row.written} vectors written (${row.seconds?.toFixed(0)} s, ${row.cases_per_second} cases/s, load ${row.load})`)}\n`);
  for (const f of row.fields ?? []) process.stderr.write(`    ${f}\n`);
}
writeFileSync(path.join(o.out, 'measured.json'), JSON.stringify({ date: new Date().toISOString(), seed: o.seed, runs: o.runs, jobs: o.jobs, node: nodeVersion, rows }, null, 2) + '\n');
process.stdout.write(`Seed ${o.seed}, ${o.runs} cases per host, ${o.jobs} jobs, Node ${nodeVersion}, ${new Date().toISOString().slice(0, 10)}; load average at the end ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}.\n\n`);
process.stdout.write(table(rows) + '\n');
const problems = rows.flatMap((r) => [...(r.skipped ? [`${r.host}: not run: ${r.skipped}`] : []), ...r.problems.map((p) => `${r.host}: ${p}`)]);
if (problems.length > 0) {
  process.stdout.write(`\nProblems:\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
  process.exit(1);
}
