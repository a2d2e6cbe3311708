import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, Help } from 'commander';
import { PACKAGE_ROOT } from '../version.js';
import { buildProgram, commandOf, COMMANDS } from './main.js';

t.test('a command left waiting on a promise nothing settles: exit 3 with a message, not a silent exit 13', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-main-'));
  const script = path.join(dir, 'stuck.mjs');
  const mainUrl = pathToFileURL(path.join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'main.js')).href;
  writeFileSync(
    script,
    `import { buildProgram, main } from ${JSON.stringify(mainUrl)};\n` +
      `const program = buildProgram();\n` +
      `program.command('stuck').action(() => new Promise(() => {}));\n` +
      `process.exitCode = await main(['node', 'ctk', 'stuck'], program);\n`,
  );
  const r = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 60_000 });
  t.equal(r.status, 3, r.stderr);
  t.match(r.stderr, /internal error \(the CTK ran out of work while a command was still waiting to finish\)/);
});

t.test('an explicit process.exit() from a command is not mistaken for a stall', async (t) => {
  const r = spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js'), 'reference-host', '--stdio'], { input: '', encoding: 'utf8' });
  t.equal(r.status, 0, r.stderr);
  t.notMatch(r.stderr, /internal error/);
});

t.test('the command table agrees with what each command module registers', async (t) => {
  const cliDir = path.join(PACKAGE_ROOT, 'dist', 'src', 'cli');
  const modules = readdirSync(cliDir).filter((f) => f.endsWith('-command.js')).map((f) => f.replace(/-command\.js$/, ''));
  t.same([...COMMANDS.map((c) => c.name)].sort(), modules.sort(), 'one table entry per src/cli/*-command.ts, named as its file');
  for (const entry of COMMANDS) {
    const program = new Command();
    (await entry.load()).register(program);
    const registered = program.commands.find((c) => c.name() === entry.name);
    t.ok(registered, `${entry.name}-command registers "${entry.name}"`);
    t.equal(program.commands.length, 1, `${entry.name}-command registers one command`);
    t.equal(entry.summary, registered!.description(), `${entry.name}: the table's summary is the registered description`);
    t.equal(`${entry.name} ${entry.usage}`, new Help().subcommandTerm(registered!), `${entry.name}: the table's usage is what --help derives from the command`);
  }
});

t.test('the root --help without any command loaded is the one with every command loaded', async (t) => {
  const all = new Map<string, (program: Command) => void>();
  for (const entry of COMMANDS) all.set(entry.name, (await entry.load()).register);
  const help = (program: Command) => {
    let text = '';
    program.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
    program.outputHelp();
    return text;
  };
  const lazy = help(buildProgram());
  t.equal(lazy, help(buildProgram(all)));
  for (const entry of COMMANDS) t.ok(lazy.includes(`  ${entry.name} ${entry.usage}`), `--help lists ${entry.name}`);
});

t.test('commandOf: the first operand names the command; help CMD names CMD', async (t) => {
  t.equal(commandOf(['run', '--vectors', 'x'])?.name, 'run');
  t.equal(commandOf(['-h', 'validate'])?.name, 'validate');
  t.equal(commandOf(['help', 'fuzz'])?.name, 'fuzz');
  t.equal(commandOf(['--version']), undefined);
  t.equal(commandOf(['help']), undefined);
  t.equal(commandOf(['nonsense']), undefined);
  t.equal(commandOf([]), undefined);
});

/** The modules a CLI process loads (ESM by URL, CommonJS by path), through a preload that records them. */
function loadedModules(args: string[]): { status: number | null; loaded: string[]; bundle: 'main' | 'run' | undefined } {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-main-loads-'));
  const log = path.join(dir, 'loaded.txt');
  writeFileSync(path.join(dir, 'hooks.mjs'), `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }\n`);
  writeFileSync(
    path.join(dir, 'preload.mjs'),
    `import { register, createRequire } from 'node:module';\nimport { appendFileSync } from 'node:fs';\nregister('./hooks.mjs', import.meta.url);\n` +
      `const require = createRequire(import.meta.url);\nprocess.on('exit', () => appendFileSync(${JSON.stringify(log)}, Object.keys(require.cache).join('\\n') + '\\n'));\n`,
  );
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(path.join(dir, 'preload.mjs')).href, path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js'), ...args], { encoding: 'utf8', timeout: 120_000 });
  const loaded = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  rmSync(dir, { recursive: true, force: true });
  const started = (rel: string) => loaded.includes(pathToFileURL(path.join(BUNDLE_DIR, rel)).href);
  return { status: r.status, loaded: unbundled(loaded), bundle: started('main.js') ? 'main' : started('run/main.js') ? 'run' : undefined };
}

const BUNDLE_DIR = path.join(PACKAGE_ROOT, 'dist', 'cli');
/** Does bin/agent-hooks-ctk.js start the bundle (dist/cli/, current) or dist/src/ (no bundle, or tsc wrote since)? */
function bundleCurrent(): boolean {
  const mtime = (f: string) => statSync(f, { throwIfNoEntry: false })?.mtimeMs;
  const bundled = Math.min(mtime(path.join(BUNDLE_DIR, 'main.js')) ?? -Infinity, mtime(path.join(BUNDLE_DIR, 'run', 'main.js')) ?? -Infinity);
  const compiled = mtime(path.join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'main.js'));
  return bundled !== -Infinity && (compiled === undefined || bundled >= compiled);
}

/**
 * The loaded list with each chunk of the bundle replaced by the modules it holds (dist/cli/modules.json, written by
 * scripts/bundle-cli.mjs), as file URLs: the checks below then read the same whether the CLI ran bundled or not.
 */
function unbundled(loaded: string[]): string[] {
  if (!existsSync(path.join(BUNDLE_DIR, 'modules.json'))) return loaded;
  const modules = JSON.parse(readFileSync(path.join(BUNDLE_DIR, 'modules.json'), 'utf8')) as Record<string, string[]>;
  const prefix = pathToFileURL(BUNDLE_DIR).href + '/';
  return loaded.flatMap((u) => {
    if (!u.startsWith(prefix)) return [u];
    const held = modules[u.slice(prefix.length)];
    if (held === undefined) throw new Error(`${u}: not a chunk of dist/cli/modules.json`);
    return held.map((m) => pathToFileURL(path.join(PACKAGE_ROOT, m)).href);
  });
}

const commandModules = (loaded: string[]) => loaded.filter((u) => /\/dist\/src\/cli\/[^/]+-command\.js$/.test(u)).map((u) => path.basename(u));
const DEPENDENCIES = Object.keys((JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { dependencies: object }).dependencies);
/** Our dependencies among the loaded modules (the test runner's own preloads are not ours). */
const packages = (loaded: string[]) => [...new Set(loaded.flatMap((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1] ?? []))].filter((p) => DEPENDENCIES.includes(p)).sort();

t.test('--version and --help load no command module; a command loads only its own', async (t) => {
  for (const args of [['--version'], ['--help']]) {
    const { status, loaded, bundle } = loadedModules(args);
    t.equal(status, 0);
    t.equal(bundle, bundleCurrent() ? 'main' : undefined, `${args.join(' ')}: the bundle runs when it is current (dist/cli/ no older than dist/src/)`);
    t.same(commandModules(loaded), [], `${args.join(' ')}: no command module`);
    t.same(packages(loaded), ['commander'], `${args.join(' ')}: commander only`);
  }
  const validate = loadedModules(['validate', path.join(PACKAGE_ROOT, 'vectors')]);
  t.equal(validate.status, 0);
  t.same(commandModules(validate.loaded), ['validate-command.js']);
});

t.test('a run on the reference host loads neither execa, yaml, ajv, tsx nor a file reporter', async (t) => {
  const { status, loaded, bundle } = loadedModules(['run', '--vectors', path.join(PACKAGE_ROOT, 'vectors'), '--grep', '.', '--bail']);
  t.equal(status, 0);
  t.equal(bundle, bundleCurrent() ? 'run' : undefined, 'the run bundle (dist/cli/run/) runs when it is current');
  t.same(commandModules(loaded), ['run-command.js']);
  for (const pkg of ['execa', 'yaml', 'tsx']) t.notOk(packages(loaded).includes(pkg), `no ${pkg}`);
  // The build-time validators need a few helpers of ajv's runtime, never its compiler.
  t.same(loaded.filter((u) => /\/node_modules\/ajv\//.test(u) && !/\/ajv\/dist\/runtime\//.test(u)), [], 'no ajv beyond its runtime helpers');
  t.same(loaded.filter((u) => /\/dist\/src\/report\/(markdown|junit|tap|html|badge)\.js$/.test(u)), [], 'no file reporter');
  t.same(loaded.filter((u) => /\/dist\/src\/harness\/stdio\/client\.js$/.test(u)), [], 'no stdio client');
  t.same(loaded.filter((u) => /\/dist\/src\/ctk\/(mutants\/[^/]+|coverage)\.js$/.test(u)), [], 'no mutant list, no requirement catalogue (a passing run cites no requirement)');
});

t.test('bin starts the run bundle for exactly what commandOf reads as the run command', async (t) => {
  const { runMain } = await import('./run-main.js');
  await t.rejects(runMain(['node', 'ctk', 'validate']), /the run bundle was started for the validate command/);
  await t.rejects(runMain(['node', 'ctk', '--version']), /the run bundle was started for no command/);
  for (const args of [['help', 'run'], ['run', '--help'], ['-h', 'run']]) {
    const { status, bundle } = loadedModules(args);
    t.equal(status, 0, args.join(' '));
    t.equal(bundle, bundleCurrent() ? 'run' : undefined, `${args.join(' ')}: the run bundle`);
    const r = spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js'), ...args], { encoding: 'utf8' });
    const mainUrl = pathToFileURL(path.join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'main.js')).href;
    const code = `import { main } from ${JSON.stringify(mainUrl)}; process.exitCode = await main(process.argv);`;
    const unbundledHelp = spawnSync(process.execPath, ['--input-type=module', '-e', code, 'ctk', ...args], { encoding: 'utf8' });
    t.equal(r.stdout, unbundledHelp.stdout, `${args.join(' ')}: the help dist/src/ prints`);
  }
});

t.test('a reader that closes the pipe early cuts the output: no stack trace, the exit code stays the command\'s', async (t) => {
  // `… | head -1`: the reader is gone before the CLI writes (here `| true`, which exits at once).
  const bin = path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js');
  for (const args of [['help', 'run'], ['run', '--vectors', path.join(PACKAGE_ROOT, 'vectors'), '--grep', 'AH-CTK-20']]) {
    const r = spawnSync('bash', ['-c', `"$0" "$1" "\${@:2}" | true; exit "\${PIPESTATUS[0]}"`, process.execPath, bin, ...args], { encoding: 'utf8', timeout: 60_000 });
    t.notMatch(r.stderr, /EPIPE|at .*\(node:/, `${args.join(' ')}: no stack trace`);
    t.equal(r.status, 0, `${args.join(' ')}: the command's own exit code`);
  }
});
