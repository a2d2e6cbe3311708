// `init --lang ts|python [DIR]`: scaffolds a stdio harness for a new host (protocol loop written,
// four methods stubbed, README of next steps). Never overwrites an existing file.
import { existsSync, mkdirSync, writeFileSync, chmodSync, statSync, realpathSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { PACKAGE_ROOT } from '../version.js';
import type { Command } from 'commander';
import { CliError, EXIT } from './exit.js';
import { SCAFFOLD_LANGS, scaffoldFiles, type ScaffoldLang } from '../harness/stdio/scaffold.js';

interface InitFlags {
  lang?: string;
}

export function register(program: Command): void {
  program
    .command('init')
    .description('Scaffold a conformance harness for a new host: the stdio protocol loop written, the four methods stubbed, a README of next steps')
    .requiredOption('--lang <lang>', `language of the harness: ${SCAFFOLD_LANGS.join(' | ')}`)
    .argument('[dir]', 'directory to write into (created if missing)', '.')
    .action((dir: string, flags: InitFlags) => {
      const lang = flags.lang as ScaffoldLang;
      if (!SCAFFOLD_LANGS.includes(lang)) {
        throw new CliError(EXIT.badInput, `--lang: expected one of ${SCAFFOLD_LANGS.join(', ')}, got ${JSON.stringify(flags.lang)}`);
      }
      if (existsSync(dir) && !statSync(dir).isDirectory()) {
        throw new CliError(EXIT.badInput, `init: ${dir} exists and is not a directory; give a new or empty directory to write the harness into`);
      }
      const files = scaffoldFiles(lang);
      const targets = files.map((f) => ({ ...f, full: path.resolve(dir, f.path) }));
      // All-or-nothing: check every file before writing any.
      const existing = targets.filter((f) => existsSync(f.full)).map((f) => f.full);
      if (existing.length > 0) {
        throw new CliError(
          EXIT.badInput,
          `init would overwrite ${existing.join(', ')}; nothing was written. Choose an empty directory (agent-hooks-ctk init --lang ${lang} <dir>) or move the file${existing.length > 1 ? 's' : ''} away.`,
        );
      }
      try {
        mkdirSync(path.resolve(dir), { recursive: true });
        for (const f of targets) {
          writeFileSync(f.full, f.content, { flag: 'wx' });
          if (f.executable) chmodSync(f.full, 0o755);
        }
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const why = code === 'ENOTDIR' || code === 'EEXIST' ? 'a parent of it is a file, not a directory' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (error as Error).message;
        throw new CliError(EXIT.badInput, `init could not write into ${dir} (${why}); give a new or empty directory`);
      }
      const rel = path.relative(process.cwd(), path.resolve(dir));
      const where = rel === '' ? '.' : rel.startsWith('..') ? path.resolve(dir) : rel;
      const steps = nextCommands(lang, path.resolve(dir));
      process.stdout.write(
        `Wrote ${targets.map((f) => path.join(where, f.path)).join(', ')}.\n` +
          `Next: ${lang === 'python' ? 'fill in surface() and start()' : 'fill in describe/setup/run/teardown'} (see ${path.join(where, 'README.md')}), then\n` +
          `  cd ${quoteArg(where)}${steps.map((c) => ` && ${c}`).join('')}\n`,
      );
    });
}

const quoteArg = (arg: string): string => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`);

/** Whether `file` and `other` are the same file (through links), false when either is missing. */
function sameFile(file: string, other: string): boolean {
  try {
    return realpathSync(file) === realpathSync(other);
  } catch {
    return false;
  }
}

/**
 * How to run this CTK from `dir`, as it was found: `agent-hooks-ctk` when that name on PATH is this CTK, `npx
 * agent-hooks-ctk` when dir's node_modules has it, else node and this CTK's bin file (the package is not on a registry).
 */
export function ctkCommand(dir: string, env: NodeJS.ProcessEnv = process.env): string {
  const bin = path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js');
  for (const entry of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    if (sameFile(path.join(entry, 'agent-hooks-ctk'), bin)) return 'agent-hooks-ctk';
  }
  for (let up = dir; ; up = path.dirname(up)) {
    if (sameFile(path.join(up, 'node_modules', '.bin', 'agent-hooks-ctk'), bin)) return 'npx agent-hooks-ctk';
    if (path.dirname(up) === up) break;
  }
  return `node ${quoteArg(bin)}`;
}

/** The commands after `cd dir`: for Python the kit's install when python3 there cannot import it, then the run. */
export function nextCommands(lang: ScaffoldLang, dir: string): string[] {
  const ctk = ctkCommand(dir);
  if (lang !== 'python') return [`${ctk} run --harness-cmd "npx tsx harness.ts"`];
  const probe = spawnSync('python3', ['-c', 'import agent_hooks_ctk'], { cwd: dir, stdio: 'ignore' });
  const install = probe.status === 0 ? [] : [`python3 -m pip install ${quoteArg(path.join(PACKAGE_ROOT, 'python'))}`];
  return [...install, `${ctk} run --harness-cmd "python3 harness.py"`];
}
