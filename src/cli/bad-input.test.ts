// The bad-input audit of `run`: each case is an input a user can plausibly give, with the exit code
// and the one-paragraph message it must get (exit 2 bad input, 1 failure, 3 internal; never a stack,
// never a false pass). Spawned as a user runs it, after the build.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../version.js';
import { baseVector } from '../ctk/test-vectors.test.util.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js');
const fakeUrl = pathToFileURL(path.join(here, '..', 'ctk', 'fake-harness.test.util.js')).href;
const STACK = /\n\s+at .+:\d+:\d+/;

function cli(args: string[], options: { cwd?: string; env?: Record<string, string>; timeout?: number } = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    cwd: options.cwd,
    timeout: options.timeout ?? 60_000,
    env: withoutColourVars({ ...process.env, ...options.env }),
  });
  return { code: r.status, out: r.stdout, err: r.stderr, signal: r.signal };
}

function withoutColourVars(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  delete out.NO_COLOR;
  delete out.FORCE_COLOR;
  return out;
}

function workspace() {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-bad-input-'));
  mkdirSync(path.join(dir, 'vectors'));
  writeFileSync(path.join(dir, 'vectors', 'ok.json'), JSON.stringify(baseVector(), null, 2));
  writeFileSync(path.join(dir, 'host.mjs'), `import { createFakeHarness } from ${JSON.stringify(fakeUrl)};\nexport const createHarness = () => createFakeHarness();\n`);
  return { dir, vectors: path.join(dir, 'vectors'), host: path.join(dir, 'host.mjs') };
}

t.test('an empty --harness or --harness-cmd is a usage error, never a silent run of the reference host', async (t) => {
  const w = workspace();
  for (const flag of ['--harness', '--harness-cmd']) {
    const r = cli(['run', '--vectors', w.vectors, flag, '']);
    t.equal(r.code, 2, `${flag} ""`);
    t.match(r.err, new RegExp(`${flag}: .*empty`));
    t.notMatch(r.out, /PASSED/);
  }
});

t.test('--out naming a file is bad input (exit 2), and is refused before anything runs', async (t) => {
  const w = workspace();
  const file = path.join(w.dir, 'taken');
  writeFileSync(file, 'x');
  for (const out of [file, path.join(file, 'sub')]) {
    const r = cli(['run', '--harness', w.host, '--vectors', w.vectors, '--out', out]);
    t.equal(r.code, 2, out);
    t.match(r.err, /--out .*taken.*not a directory|--out .*taken.*cannot/);
    t.notMatch(r.err, /internal error/);
    t.notMatch(r.out, /PASSED/, 'refused before the run, not after it');
    t.notMatch(r.err, STACK);
  }
});

t.test('--trace naming a file is bad input (exit 2) before anything runs', async (t) => {
  const w = workspace();
  const file = path.join(w.dir, 'taken');
  writeFileSync(file, 'x');
  const r = cli(['run', '--harness', w.host, '--vectors', w.vectors, '--trace', file]);
  t.equal(r.code, 2);
  t.match(r.err, /--trace .*taken/);
  t.notMatch(r.out, /PASSED/);
});

t.test('--timeout takes decimal milliseconds a timer can hold', async (t) => {
  const w = workspace();
  for (const bad of ['0x10', '1e3', ' 5', '-1', '0', '2147483648', '99999999999999']) {
    const r = cli(['run', '--harness', w.host, '--vectors', w.vectors, '--timeout', bad]);
    t.equal(r.code, 2, `--timeout ${JSON.stringify(bad)}`);
    t.match(r.err, /--timeout: /);
    t.notMatch(r.err, /TimeoutOverflowWarning/);
  }
  const ok = cli(['run', '--harness', w.host, '--vectors', w.vectors, '--timeout', '2147483647']);
  t.equal(ok.code, 0, ok.err);
  const selftest = cli(['selftest', '--mutants', '--timeout', '0x10']);
  t.equal(selftest.code, 2);
});

t.test('an empty --reporter list is a usage error', async (t) => {
  const w = workspace();
  const r = cli(['run', '--harness', w.host, '--vectors', w.vectors, '--reporter', ' , ']);
  t.equal(r.code, 2);
  t.match(r.err, /--reporter: /);
});

t.test('a trace that cannot be written fails the vector instead of passing it silently', async (t) => {
  const { runSuite } = await import('../ctk/runner.js');
  const { createFakeHarness } = await import('../ctk/fake-harness.test.util.js');
  const { loaded: loadedVector } = await import('../ctk/test-vectors.test.util.js');
  const w = workspace();
  const file = path.join(w.dir, 'a-file');
  writeFileSync(file, 'x');
  const harness = createFakeHarness();
  const report = await runSuite([loadedVector(baseVector())], {
    harness,
    surface: await harness.describe(),
    harnessLabel: 'test',
    timeoutMs: 10_000,
    traceDir: file,
  });
  t.equal(report.results[0]!.status, 'fail');
  t.equal(report.summary.failed, 1);
  t.match(report.results[0]!.reason, /could not write the trace/);
  t.notOk(existsSync(path.join(file, 'x')));
  t.ok(readFileSync(file, 'utf8') === 'x');
});

t.test('harness modules that break: each gets exit 2 or 1 with a message naming the module and the cause', async (t) => {
  const w = workspace();
  const write = (name: string, text: string) => {
    writeFileSync(path.join(w.dir, name), text);
    return path.join(w.dir, name);
  };
  const cases: Array<[string, string, number, RegExp]> = [
    ['syntax.ts', 'export default ( => {\n', 2, /syntax\.ts: cannot load the module \(TransformError: .*syntax\.ts:1:\d+: ERROR: /],
    ['throws.mjs', 'throw new Error("no database configured")\n', 2, /throws\.mjs: cannot load the module \(Error: no database configured\)/],
    ['bad-surface.mjs', 'export default () => ({ describe() { return { name: 7 } }, setup() {}, run() {}, teardown() {} })\n', 2, /describe\(\) of in-process:.*bad-surface\.mjs: \/name: must be a non-empty string/],
    ['hangs.mjs', 'export default () => ({ describe() { return new Promise(() => {}) }, setup() {}, run() {}, teardown() {} })\n', 1, /the harness \(in-process:.*hangs\.mjs\) failed to describe its surface \(describe\(\) did not answer within 300 ms\); nothing was run\. .*--surface/],
  ];
  for (const [name, text, code, re] of cases) {
    const r = cli(['run', '--harness', write(name, text), '--vectors', w.vectors, '--timeout', '300']);
    t.equal(r.code, code, name);
    t.match(r.err, re, name);
    t.notMatch(r.err, STACK);
    t.notMatch(r.out, /PASSED/);
  }
});

t.test('--surface files that are not surfaces', async (t) => {
  const w = workspace();
  const write = (name: string, data: string | Buffer) => {
    writeFileSync(path.join(w.dir, name), data);
    return path.join(w.dir, name);
  };
  const cases: Array<[string, string | Buffer, RegExp]> = [
    ['latin1.yaml', Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x3a, 0x20, 0xe9, 0x0a]), /latin1\.yaml: not valid UTF-8/],
    ['unclosed.yaml', 'name: [x\n', /unclosed\.yaml: not valid YAML\/JSON: [^\n]*[^:]\n$/],
  ];
  for (const [name, data, re] of cases) {
    const r = cli(['run', '--harness', w.host, '--vectors', w.vectors, '--surface', write(name, data)]);
    t.equal(r.code, 2, name);
    t.match(r.err, re, name);
  }
  const missing = cli(['run', '--harness', w.host, '--vectors', w.vectors, '--surface', path.join(w.dir, 'nope.yaml')]);
  t.match(missing.err, /nope\.yaml: cannot read surface file \(no such file\)/);
});

t.test('an in-process harness that exits, throws from a timer or leaves a rejection: the vector fails, the run goes on, no stack', async (t) => {
  const w = workspace();
  writeFileSync(path.join(w.dir, 'vectors', 'second.json'), JSON.stringify(baseVector({ id: 'AH-CTK-901-second' }), null, 2));
  const host = (name: string, misbehave: string) => {
    const file = path.join(w.dir, name);
    // Misbehaves on the first vector only, so the second shows the run went on.
    writeFileSync(
      file,
      `import { createFakeHarness } from ${JSON.stringify(fakeUrl)};\n` +
        `export default () => { const h = createFakeHarness(); const run = h.run.bind(h); let n = 0;\n` +
        `  return { ...h, describe: h.describe.bind(h), setup: h.setup.bind(h), teardown: h.teardown.bind(h),\n` +
        `    async run() { if (n++ === 0) { ${misbehave} } return run(); } }; };\n`,
    );
    return file;
  };
  const cases: Array<[string, string, RegExp]> = [
    ['exit0.mjs', 'process.exit(0);', /the harness called process\.exit\(0\)/],
    ['exit-late.mjs', 'setTimeout(() => process.exit(0), 0); await new Promise((r) => setTimeout(r, 20));', /outside any call while this vector ran: the harness called process\.exit\(0\)/],
    ['timer.mjs', 'setTimeout(() => { throw new Error("late boom"); }, 0); await new Promise((r) => setTimeout(r, 20));', /outside any call while this vector ran: uncaught exception: Error: late boom/],
    ['reject.mjs', 'Promise.reject(new Error("dangling")); await new Promise((r) => setTimeout(r, 20));', /outside any call while this vector ran: unhandled promise rejection: Error: dangling/],
  ];
  for (const [name, misbehave, re] of cases) {
    const out = path.join(w.dir, `out-${name}`);
    const r = cli(['run', '--harness', host(name, misbehave), '--vectors', w.vectors, '--out', out]);
    t.equal(r.code, 1, `${name}: ${r.err}`);
    t.notMatch(r.err, STACK, name);
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8'));
    t.same(report.results.map((x: { status: string }) => x.status), ['fail', 'pass'], `${name}: first fails, second still runs`);
    t.match(report.results[0].failures.map((f: { message: string }) => f.message).join('\n'), re, name);
  }
});

t.test('usage errors name the program and point at --help; every command has help that exits 0', async (t) => {
  const unknown = cli(['run', '--bogus']);
  t.equal(unknown.code, 2);
  t.match(unknown.err, /^agent-hooks-ctk: unknown option '--bogus'\n\(agent-hooks-ctk <command> --help shows the usage\)\n$/);
  const missing = cli(['verify-report', '--vectors', 'vectors']);
  t.equal(missing.code, 2);
  t.match(missing.err, /^agent-hooks-ctk: missing required argument 'report'/);
  const top = cli(['--help']);
  t.equal(top.code, 0);
  t.match(top.out, /Exit codes:\n {2}0 {2}passed/);
  t.match(top.out, /NO_COLOR/);
  for (const command of ['run', 'validate', 'list', 'identity', 'reference-host', 'init', 'coverage', 'selftest', 'verify-report', 'claim']) {
    const r = cli([command, '--help']);
    t.equal(r.code, 0, command);
    t.match(r.out, new RegExp(`^Usage: agent-hooks-ctk ${command} `), command);
    t.match(r.out, /\n\n[A-Z]/, `${command}: the description starts with a capital`);
  }
  const run = cli(['run', '--help']);
  t.match(run.out, /not both/);
  t.match(run.out, /Exit codes:/);
  t.match(cli(['list', '--help']).out, /sub-part/);
});

t.test('many malformed vectors: run lists twenty and points at validate, validate lists every one', async (t) => {
  const w = workspace();
  for (let i = 0; i < 25; i++) writeFileSync(path.join(w.vectors, `bad-${String(i).padStart(2, '0')}.json`), '{');
  const run = cli(['run', '--harness', w.host, '--vectors', w.vectors]);
  t.equal(run.code, 2);
  t.match(run.err, /cannot use the vectors \(25 problems\); nothing was run/);
  t.match(run.err, /… and 5 more \(agent-hooks-ctk validate .* lists every one\)/);
  const validate = cli(['validate', w.vectors]);
  t.equal(validate.code, 2);
  t.equal((validate.err.match(/bad-\d\d\.json: not valid JSON/g) ?? []).length, 25);
});

t.test('init into a file, or under one: exit 2 saying so', async (t) => {
  const w = workspace();
  const file = path.join(w.dir, 'taken');
  writeFileSync(file, 'x');
  const r = cli(['init', '--lang', 'ts', file]);
  t.equal(r.code, 2);
  t.match(r.err, /taken exists and is not a directory/);
  const under = cli(['init', '--lang', 'ts', path.join(file, 'sub')]);
  t.equal(under.code, 2);
  t.match(under.err, /a parent of it is a file/);
});

t.test('a report file that cannot be written after the run: exit 2 naming it, not an internal error', async (t) => {
  const w = workspace();
  const out = path.join(w.dir, 'out');
  mkdirSync(path.join(out, 'report.json'), { recursive: true });
  const r = cli(['run', '--harness', w.host, '--vectors', w.vectors, '--out', out]);
  t.equal(r.code, 2);
  t.match(r.err, /--out: .*report\.json: cannot write the report here \(EISDIR\)/);
  t.notMatch(r.err, /internal error/);
});

t.test('a close() that hangs (with a live timer) or throws is reported and not waited on forever', async (t) => {
  const w = workspace();
  const host = (name: string, close: string) => {
    const file = path.join(w.dir, name);
    writeFileSync(file, `import { createFakeHarness } from ${JSON.stringify(fakeUrl)};\nexport default () => ({ ...createFakeHarness(), close: ${close} });\n`);
    return file;
  };
  const hang = cli(['run', '--harness', host('hang.mjs', '() => { setInterval(() => {}, 1000); return new Promise(() => {}); }'), '--vectors', w.vectors, '--timeout', '500'], { timeout: 30_000 });
  t.equal(hang.signal, null, 'the CTK exited by itself');
  t.equal(hang.code, 0, hang.err);
  t.match(hang.err, /did not finish close\(\) within 500 ms/);
  t.match(hang.err, /left work running after the run \(timers, sockets\); exiting anyway/);
  const boom = cli(['run', '--harness', host('boom.mjs', 'async () => { throw new Error("socket already closed"); }'), '--vectors', w.vectors]);
  t.equal(boom.code, 0);
  t.match(boom.err, /close\(\) failed: socket already closed/);
});

t.test('a --part that names no part: exit 1 listing the parts there are', async (t) => {
  const w = workspace();
  const r = cli(['run', '--harness', w.host, '--vectors', w.vectors, '--part', 'cor']);
  t.equal(r.code, 1);
  t.match(r.err, /nothing ran: no vector matches the filters \(--part\) among 1 loaded; no part is named "cor" \(parts: core\)/);
});

t.test("an in-process harness's console.log goes to stderr, so stdout is the report only", async (t) => {
  const w = workspace();
  const file = path.join(w.dir, 'chatty.mjs');
  writeFileSync(file, `import { createFakeHarness } from ${JSON.stringify(fakeUrl)};\nconsole.log('loading chatty');\nexport default () => { const h = createFakeHarness(); return { ...h, async run() { console.log('chatty run'); return h.run(); } }; };\n`);
  const r = cli(['run', '--harness', file, '--vectors', w.vectors]);
  t.equal(r.code, 0, r.err);
  t.notMatch(r.out, /chatty/);
  t.match(r.err, /loading chatty/);
  t.match(r.err, /chatty run/);
});

t.test('a --harness-cmd that cannot start is bad input (exit 2) naming the command, with or without --surface', async (t) => {
  const w = workspace();
  const surface = path.join(w.dir, 'surface.yaml');
  writeFileSync(surface, 'name: h\nversion: "1"\ncapabilities: [model_calls, tool_calls]\nprofiles: {sequential/first_deny: {on_approval: [stop]}}\n');
  for (const extra of [[], ['--surface', surface]]) {
    for (const cmd of ['no-such-program-for-ctk-tests', w.dir]) {
      const r = cli(['run', '--harness-cmd', cmd, '--vectors', w.vectors, ...extra]);
      t.equal(r.code, 2, `${cmd} ${extra.join(' ')}`);
      t.match(r.err, /^agent-hooks-ctk: --harness-cmd: the stdio host process could not be started \(spawn .* (ENOENT|EACCES)\); command: /);
      t.notMatch(r.err, /raise --timeout/);
    }
  }
});

t.test('a --harness-cmd that cannot be split (unterminated quote) is bad input (exit 2), no stack trace', async (t) => {
  const w = workspace();
  const r = cli(['run', '--harness-cmd', "python3 'unterminated", '--vectors', w.vectors]);
  t.equal(r.code, 2);
  t.match(r.err, /^agent-hooks-ctk: --harness-cmd: unterminated single quote/);
  t.notMatch(r.err, /\n\s+at /, 'no stack trace');
});
