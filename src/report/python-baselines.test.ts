// Every failure a real host's baseline expects is classified with evidence (issue: a correct host never fails for
// our reading). Each Python host keeps classification.yaml beside its expected-failures baselines: every listed
// vector names at least one code, every code is classified, no class is "unknown", a defect quotes the spec sentence
// it breaks with its section, and no failure is left on a class of ours (a reading is gated or made to accept what
// the text permits; glue is fixed). Where the spec's text is at hand, each quoted sentence must occur in it.
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { PACKAGE_ROOT } from '../version.js';
import { readBaselineFile } from '../results/expected-failures.js';

const SPEC = path.join(PACKAGE_ROOT, '..', 'shared', 'spec-current', 'AGENT-HOOKS-0.1.md');
const CLASSES = ['defect', 'reading', 'glue'] as const;
const CODE = /\b(?:SDK|MAF|REF)-\d+\b/g;

interface Classified {
  class: string;
  section?: string;
  sentence?: string;
  finding?: string;
}

const hosts = [
  { dir: 'examples/agent-hooks-sdk-python', baselines: ['expected-failures.yaml'] },
  { dir: 'integrations/microsoft-agent-framework', baselines: ['expected-failures.yaml', 'expected-failures.samples.yaml'] },
];

/** A classification file with the files it includes, as one map of code → classification. */
function readClassification(file: string): Record<string, Classified> {
  const doc = parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const { includes, ...codes } = doc;
  const included = typeof includes === 'string' ? readClassification(path.resolve(path.dirname(file), includes)) : {};
  return { ...included, ...(codes as Record<string, Classified>) };
}

/** Markdown emphasis, code spans and line breaks are not part of a sentence's words. */
const plain = (text: string) => text.replace(/[`*]/g, '').replace(/\s+/g, ' ').trim();

for (const host of hosts) {
  const classification = readClassification(path.join(PACKAGE_ROOT, host.dir, 'classification.yaml'));

  t.test(`${host.dir}/classification.yaml: every code has a known class, and a defect its sentence and section`, async (t) => {
    const spec = existsSync(SPEC) ? plain(readFileSync(SPEC, 'utf8')) : undefined;
    for (const [code, c] of Object.entries(classification)) {
      t.match(code, /^(SDK|MAF|REF)-\d+$/, `${code}: a code`);
      t.ok((CLASSES as readonly string[]).includes(c.class), `${code}: class ${JSON.stringify(c.class)} is one of ${CLASSES.join(', ')}`);
      if (c.class !== 'defect') continue;
      t.match(c.section, /^§\d+(\.\d+)*a?$/, `${code}: the section of the sentence it breaks`);
      t.ok(typeof c.sentence === 'string' && c.sentence.length > 0 && c.sentence.length <= 200, `${code}: a short quoted sentence`);
      if (spec !== undefined && typeof c.sentence === 'string') t.ok(spec.includes(plain(c.sentence)), `${code}: the quoted sentence is the spec's (${c.sentence})`);
    }
  });

  for (const name of host.baselines) {
    t.test(`${host.dir}/${name}: every failing vector it lists is classified, none on a class of ours`, async (t) => {
      const baseline = readBaselineFile(path.join(PACKAGE_ROOT, host.dir, name));
      t.ok(baseline.entries.length > 0, `${baseline.entries.length} listed failures`);
      const unclassified: string[] = [];
      const ours: string[] = [];
      for (const entry of baseline.entries) {
        const codes = entry.reason.match(CODE) ?? [];
        if (codes.length === 0) unclassified.push(`${entry.key}: names no code`);
        for (const code of codes) {
          const c = classification[code];
          if (c === undefined) unclassified.push(`${entry.key}: ${code} is not in classification.yaml`);
          else if (c.class !== 'defect') ours.push(`${entry.key}: ${code} is ${c.class} (gate the vector, widen it, or fix the glue)`);
        }
      }
      t.same(unclassified, [], 'no failing vector without a classified code');
      t.same(ours, [], 'no failure left on our reading or our glue');
    });
  }
}
