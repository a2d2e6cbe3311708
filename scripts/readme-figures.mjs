// Step of `npm run report`: the README's figures (vector, requirement and mutant counts, the reference host's results)
// and its "Real frameworks" table, generated from the data between <!-- figures:start/end --> and
// <!-- frameworks:start/end --> markers, so they never drift from what the suite and the reports say.
// Sources: reports/report.json and reports/incremental/report.json (the reference host), reports/claims/<name>/report.json
// (each integration), the integration registry (integrations/frameworks.ts, built), each integration's package.json,
// the requirement catalogue (vectors/requirements.yaml) and the selftest mutants with their requirements (built).
// `node scripts/readme-figures.mjs` rewrites README.md; `--check` exits 1 when it is stale (nothing written).
// src/report/readme-figures.test.ts fails when the committed README differs from what the data generate.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The marker pairs this script owns, in the order they appear. */
export const BLOCKS = ['figures', 'frameworks'];

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** "198 of 198 applicable, 18 skipped (not declared)" from a report's summary and results. */
export function runFigure(report) {
  const { passed, failed, skipped } = report.summary;
  const applicable = passed + failed;
  const kinds = new Map();
  for (const r of report.results ?? []) if (r.status === 'skip') kinds.set(r.skip_kind ?? 'other', (kinds.get(r.skip_kind ?? 'other') ?? 0) + 1);
  const why = [...kinds.entries()].map(([k, n]) => (kinds.size === 1 ? '' : `${n} `) + (k === 'undeclared' ? 'not declared' : 'for another reason')).join(', ');
  return `${passed} of ${applicable} applicable${failed > 0 ? ` (${failed} failed)` : ''}, ${skipped} skipped${skipped > 0 ? ` (${why})` : ''}`;
}

/** "the Vercel AI SDK" and "language-model middleware, …" from an integration's package.json description. */
export function describeIntegration(pkg, name) {
  const m = /^AGENT-HOOKS-0\.1 enforcement for (.+?): (.+?) over the agent-hooks-ctk reference host$/.exec(pkg.description ?? '');
  if (!m) {
    throw new Error(
      `integrations/${name}/package.json: the description must read "AGENT-HOOKS-0.1 enforcement for <framework>: <how it hooks in> over the agent-hooks-ctk reference host" (the README's framework table is generated from it), got ${JSON.stringify(pkg.description)}`,
    );
  }
  return { framework: m[1].replace(/^the /, ''), hooks: m[2] };
}

async function importBuilt(rel) {
  const file = path.join(ROOT, 'dist', rel);
  if (!existsSync(file)) throw new Error(`${path.relative(ROOT, file)} is missing: build first (npm run build)`);
  return import(pathToFileURL(file).href);
}

/** The text of every block, from the data under `root` (the repository). */
export async function readmeBlocks(root = ROOT) {
  const [{ FRAMEWORKS }, { MUTANTS }, { mutantsBreaking }, { loadCatalogue }] = await Promise.all([
    importBuilt('integrations/frameworks.js'),
    importBuilt('src/ctk/mutants/mutants.js'),
    importBuilt('src/ctk/mutants/requirements.js'),
    importBuilt('src/ctk/coverage.js'),
  ]);
  const buffered = readJson(path.join(root, 'reports', 'report.json'));
  const incremental = readJson(path.join(root, 'reports', 'incremental', 'report.json'));
  const requirements = loadCatalogue(path.join(root, 'vectors', 'requirements.yaml'));
  const broken = requirements.filter((r) => mutantsBreaking(r.id).length > 0).length;
  const incrementalMutants = MUTANTS.filter((m) => m.streaming === 'incremental').length;

  const figures = wrap(
    `**In numbers** (generated from \`reports/\`, the requirement catalogue and the mutant table by \`npm run report\`; a ` +
      `test fails when they are stale): the suite has **${buffered.suite.vectors} vectors**. The reference host passes ` +
      `${runFigure(buffered)}; in its incremental configuration ${runFigure(incremental)}. ` +
      `\`vectors/requirements.yaml\` lists **${requirements.length} requirements**, every MUST of the spec, each pinned by ` +
      `vectors or unit tests; ${broken} of them are broken by at least one of the **${MUTANTS.length} selftest mutants** ` +
      `(${incrementalMutants} of them of the incremental configuration), and the suite kills every mutant ` +
      `(\`coverage --thin 2\` lists the requirements no mutant breaks).`,
  );

  const rows = FRAMEWORKS.map((fw) => {
    const pkg = readJson(path.join(root, 'integrations', fw.name, 'package.json'));
    const described = describeIntegration(pkg, fw.name);
    const peerNames = Object.keys(pkg.peerDependencies ?? {}).filter((n) => n !== 'agent-hooks-ctk');
    const peers = peerNames.map((n) => `\`${n}@${pkg.peerDependencies[n]}\``);
    const hooks = described.hooks;
    // "OpenAI Agents SDK (@openai/agents-core)": the package named in parentheses is in the peer list already.
    const framework = described.framework.replace(/ \(([^()]+)\)$/, (all, inner) => (peerNames.includes(inner) ? '' : all));
    const node = fw.node ? `Node ≥ ${fw.node.version}` : `Node ${(pkg.engines?.node ?? '').replace(/^>=\s*/, '≥ ')}`.trim();
    const claim = path.join(root, 'reports', 'claims', fw.name, 'report.json');
    const run = existsSync(claim) ? runFigure(readJson(claim)) : 'no report yet (npm run report)';
    return `| [integrations/${fw.name}](integrations/${fw.name}/README.md) (\`${fw.package}\`) | ${framework} (${[...peers, node].join(', ')}) | ${hooks} | ${run} |`;
  });
  const count = ['No', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten'][FRAMEWORKS.length] ?? String(FRAMEWORKS.length);
  const frameworks = [
    wrap(
      `${count} TypeScript agent framework${FRAMEWORKS.length === 1 ? '' : 's'} adopt the reference host as their enforcement layer, ` +
        `each as an npm workspace package with its own CTK harness and claim (CLAIMS.md). The table is generated from the ` +
        `integration registry (\`integrations/frameworks.ts\`), each package's \`package.json\` and its report under ` +
        `\`reports/claims/\`:`,
    ),
    '',
    '| package | framework | how it hooks in | CTK run (our suite) |',
    '| --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
  return { figures, frameworks };
}

/** A paragraph wrapped at `width` columns, breaking at spaces only. */
export function wrap(text, width = 118) {
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}

/** `text` with every block replaced by its generated content; throws naming a missing or unpaired marker. */
export function withBlocks(text, blocks) {
  let out = text;
  for (const name of BLOCKS) {
    const start = `<!-- ${name}:start -->`;
    const end = `<!-- ${name}:end -->`;
    const i = out.indexOf(start);
    const j = out.indexOf(end);
    if (i === -1 || j === -1 || j < i || out.indexOf(start, i + 1) !== -1) throw new Error(`README.md: expected exactly one ${start} … ${end} pair`);
    out = `${out.slice(0, i + start.length)}\n${blocks[name]}\n${out.slice(j)}`;
  }
  return out;
}

async function main(argv) {
  const file = path.join(ROOT, 'README.md');
  const current = readFileSync(file, 'utf8');
  const next = withBlocks(current, await readmeBlocks(ROOT));
  if (argv.includes('--check')) {
    if (next !== current) {
      process.stderr.write('README.md: the figures or the framework table are stale; regenerate them with `npm run report` (or node scripts/readme-figures.mjs)\n');
      process.exitCode = 1;
    }
    return;
  }
  if (next !== current) writeFileSync(file, next);
  process.stdout.write(`README.md: ${next === current ? 'figures current' : 'figures regenerated'}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    process.stderr.write(`readme-figures: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  });
}
