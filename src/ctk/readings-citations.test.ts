// READINGS.md and the suite agree: every vector READINGS.md cites exists, and every vector that depends on a
// posture (a `postures` gate, `expect.by_posture`, or the published `run_outcome_by_posture`) is cited under that
// posture's reading, so a reader can find every vector a posture value is judged on.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../version.js';
import { POSTURES, POSTURE_NAMES } from '../core/postures.js';
import { defaultVectorPaths, loadVectors } from './load.js';
import { postureSelection } from './posture-cases.js';
import type { Vector } from './vector.js';

const readings = readFileSync(path.join(PACKAGE_ROOT, 'READINGS.md'), 'utf8');
const suite = loadVectors(defaultVectorPaths());
const numberOf = (id: string) => Number(/^AH-CTK-(\d{3})/.exec(id)![1]);

/**
 * A section's citations: every `AH-CTK-NNN` in it, and the numbers (`231`, ranges `242–259`) of its "**Vectors:**"
 * paragraphs, from the marker to the end of the paragraph. Only our own range (200–499) counts as a vector number.
 */
function citations(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/AH-CTK-(\d{3})/g)) out.push(Number(m[1]));
  for (const m of text.matchAll(/\*\*Vectors:\*\*([\s\S]*?)(?:\n\s*\n|$)/g)) {
    const para = m[1]!.replace(/AH-CTK-\d{3}[a-z0-9-]*/g, '');
    for (const r of para.matchAll(/\b([2-4]\d\d)\b(?:\s*[–-]\s*([2-4]\d\d)\b)?/g)) {
      const from = Number(r[1]);
      const to = r[2] === undefined ? from : Number(r[2]);
      for (let n = from; n <= to; n++) out.push(n);
    }
  }
  return out;
}

interface Section {
  heading: string;
  cited: number[];
  /** Vectors the section names by id (`AH-CTK-NNN`), not just by number. */
  named: number[];
}

function sections(md: string): Section[] {
  return md
    .split(/^### /m)
    .slice(1)
    .map((chunk) => ({ heading: chunk.split('\n', 1)[0]!, cited: citations(chunk), named: [...chunk.matchAll(/AH-CTK-(\d{3})/g)].map((m) => Number(m[1])) }));
}

/** The postures a vector depends on, and how. */
function posturesUsed(v: Vector): string[] {
  const names = new Set(Object.keys(v.postures ?? {}));
  const selection = postureSelection(v.expect);
  if (selection !== undefined) names.add(selection.name);
  return [...names];
}

t.test('the citation reader takes numbers, ranges and ids, and nothing outside a Vectors paragraph', async (t) => {
  t.same(citations('text 256 bytes.\n\n**Vectors:** 231, 242–244 (`x`), AH-CTK-300.\nmore 305\n\nlater 400'), [300, 231, 242, 243, 244, 305]);
});

const all = sections(readings);

t.test('every vector READINGS.md cites exists in the suite', async (t) => {
  const known = new Set(suite.map((lv) => numberOf(lv.vector.id)));
  const missing: string[] = [];
  for (const s of all) for (const n of s.cited) if (!known.has(n)) missing.push(`${n} (under "${s.heading}")`);
  t.ok(all.reduce((k, s) => k + s.cited.length, 0) > 100, 'READINGS.md cites vectors');
  t.same(missing, [], 'cited numbers with no vector');
});

t.test("every vector that depends on a posture is cited under that posture's reading", async (t) => {
  for (const name of POSTURE_NAMES) {
    const section = all.find((s) => s.heading.includes(`(b) \`${name}\``));
    t.ok(section, `READINGS.md has a (b) reading for ${name}`);
    const cited = new Set(section?.cited ?? []);
    const using = suite.filter((lv) => posturesUsed(lv.vector).includes(name));
    t.ok(using.length > 0, `some vector depends on ${name}`);
    const uncited = using.filter((lv) => !cited.has(numberOf(lv.vector.id))).map((lv) => lv.vector.id);
    t.same(uncited, [], `vectors depending on ${name} that its reading does not cite`);
  }
});

// A vector gated to a posture's default value is skipped by every host declaring another value; its reading says
// by id why that value is not judged on it (or which vector judges it), so no such gate is left unexplained.
t.test("every vector gated to a posture's default value is named by id under that posture's reading", async (t) => {
  for (const name of POSTURE_NAMES) {
    const named = new Set(all.find((s) => s.heading.includes(`(b) \`${name}\``))?.named ?? []);
    const gatedToDefault = suite.filter((lv) => lv.vector.postures?.[name] === POSTURES[name].default).map((lv) => lv.vector.id);
    t.same(gatedToDefault.filter((id) => !named.has(numberOf(id))), [], `vectors gated to ${name}=${POSTURES[name].default} that its reading does not name`);
  }
});

t.test("the suite's own vectors select by posture with by_posture, never the published outcome-only form", async (t) => {
  const alias = suite.filter((lv) => lv.vector.expect.run_outcome_by_posture !== undefined).map((lv) => lv.vector.id);
  t.same(alias, [], 'run_outcome_by_posture states the outcome only; by_posture asserts everything the posture changes');
});

t.test('every by_posture case of the suite states the outcome and the final output (or per-turn outputs) it expects', async (t) => {
  const thin: string[] = [];
  for (const lv of suite) {
    for (const [value, c] of Object.entries(lv.vector.expect.by_posture?.cases ?? {})) {
      const e = { ...lv.vector.expect, ...c };
      const output = Object.prototype.hasOwnProperty.call(e, 'final_output') || e.outputs !== undefined;
      if (c.run_outcome === undefined || !output) thin.push(`${lv.vector.id} (${value})`);
    }
  }
  t.same(thin, [], 'cases that leave the outcome or the output unasserted');
});
