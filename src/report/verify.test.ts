import t from 'tap';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { PACKAGE_ROOT } from '../version.js';
import { fingerprintVectors } from '../ctk/vector-source.js';
import { verifyReportAgainst } from './verify.js';
import { buildReport, pass } from './report-fixture.test.util.js';
import { writeReports } from './write.js';
import { suiteDigest } from '../results/digest.js';
import type { ConformanceReport } from '../results/model.js';

const BIN = path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js');

// Hand-written vectors (shape only loosely like real ones: verify-report only hashes them).
const VECTORS: Record<string, string> = {
  'a/first.json': `{
  "id": "AH-CTK-901-digest-probe",
  "title": "Deny at input ends the turn",
  "spec_clause": "6",
  "scenario": { "input": { "content": "héllo ☃", "role": "user" } },
  "interceptor_script": [ { "at": "input", "return": { "decision": "deny", "reason": "no" } } ],
  "expect": { "interceptions": ["agent_startup", "input"], "run_outcome": "blocked", "final_output": null }
}
`,
  'b/second.json': `{"id":"AH-CTK-902","title":"Numbers","spec_clause":"4.4","big":12345678901234567890,"small":[0.5,1.0,-3,2e3],"ok":true}\n`,
  'b/nested/third.json': `{ "id": "AH-CTK-903", "title": "Nested", "spec_clause": "5.2", "deep": { "x": [ { "y": "z" } ] } }\n`,
};

async function makeSuite(): Promise<{ dir: string; vectorsDir: string; report: ConformanceReport; reportFile: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ctk-verify-'));
  const vectorsDir = path.join(dir, 'vectors');
  for (const [rel, text] of Object.entries(VECTORS)) {
    await mkdir(path.dirname(path.join(vectorsDir, rel)), { recursive: true });
    await writeFile(path.join(vectorsDir, rel), text);
  }
  const { vectors } = fingerprintVectors([vectorsDir]);
  const report = buildReport(vectors.map((v) => pass(v.id, 'core', { digest: v.digest, file: v.file })));
  report.suite.digest = suiteDigest(vectors);
  const out = path.join(dir, 'out');
  await writeReports(report, ['json'], out);
  return { dir, vectorsDir, report, reportFile: path.join(out, 'report.json') };
}

function editOneChar(text: string, i: number): string | undefined {
  const c = text[i]!;
  let r: string;
  if (/[0-9]/.test(c)) r = c === '9' ? '8' : String(Number(c) + 1);
  else if (/[a-zA-Z]/.test(c)) r = c === 'q' ? 'r' : 'q';
  else if (/\s/.test(c)) return undefined; // insignificant whitespace (or, in a string, covered by the other cases)
  else r = c === 'x' ? 'y' : 'x';
  return text.slice(0, i) + r + text.slice(i + 1);
}

t.test('an untouched suite verifies', async (t) => {
  const { vectorsDir, report, dir } = await makeSuite();
  const source = fingerprintVectors([vectorsDir]);
  t.equal(source.vectors.length, 3);
  const outcome = verifyReportAgainst(report, source.vectors, source.unreadable);
  t.ok(outcome.ok, outcome.lines.join('\n'));
  t.match(outcome.lines.at(-1), /^OK: all 3 vectors hash/);
  await rm(dir, { recursive: true });
});

t.test('every one-character edit to any vector is caught', async (t) => {
  const { vectorsDir, report, dir } = await makeSuite();
  let edits = 0;
  for (const [rel, text] of Object.entries(VECTORS)) {
    const file = path.join(vectorsDir, rel);
    for (let i = 0; i < text.length; i++) {
      const edited = editOneChar(text, i);
      if (edited === undefined) continue;
      await writeFile(file, edited);
      const source = fingerprintVectors([vectorsDir]);
      const outcome = verifyReportAgainst(report, source.vectors, source.unreadable);
      edits++;
      if (outcome.ok) t.fail(`edit at ${rel}:${i} (${JSON.stringify(text[i])}) went unnoticed`);
    }
    await writeFile(file, text);
  }
  t.ok(edits > 300, `${edits} edits tried`);
  const source = fingerprintVectors([vectorsDir]);
  t.ok(verifyReportAgainst(report, source.vectors).ok, 'restored suite verifies again');
  await rm(dir, { recursive: true });
});

t.test('changed, appeared, vanished and unreadable are each named', async (t) => {
  const { vectorsDir, report, dir } = await makeSuite();
  await writeFile(path.join(vectorsDir, 'b/second.json'), VECTORS['b/second.json']!.replace('"ok":true', '"ok":false'));
  await rm(path.join(vectorsDir, 'b/nested/third.json'));
  await writeFile(path.join(vectorsDir, 'new.json'), '{"id":"AH-CTK-904","title":"new"}');
  await writeFile(path.join(vectorsDir, 'broken.json'), '{"id":');
  const source = fingerprintVectors([vectorsDir]);
  const outcome = verifyReportAgainst(report, source.vectors, source.unreadable);
  t.notOk(outcome.ok);
  t.same(outcome.changed.map((c) => c.id), ['AH-CTK-902']);
  t.same(outcome.appeared.map((c) => c.id), ['AH-CTK-904']);
  t.same(outcome.vanished.map((c) => c.id), ['AH-CTK-903']);
  t.equal(outcome.unreadable.length, 1);
  const text = outcome.lines.join('\n');
  t.match(text, /changed: {2}AH-CTK-902 \(.*second\.json\)/);
  t.match(text, /appeared: AH-CTK-904/);
  t.match(text, /vanished: AH-CTK-903 \(was .*third\.json\)/);
  t.match(text, /unreadable: .*broken\.json: not valid JSON/);
  t.match(text, /FAIL: 4 vectors differ from the report; the suite digest does not match/);
  await rm(dir, { recursive: true });
});

t.test('a report whose own digests were edited is caught even when the vectors match', async (t) => {
  const { vectorsDir, report, dir } = await makeSuite();
  const source = fingerprintVectors([vectorsDir]);
  const tampered = { ...report, suite: { ...report.suite, digest: 'sha256:' + '0'.repeat(64) } };
  const outcome = verifyReportAgainst(tampered, source.vectors);
  t.notOk(outcome.ok);
  t.match(outcome.lines.join('\n'), /report inconsistent/);
  await rm(dir, { recursive: true });
});

t.test('CLI: exit 0 on a match, 1 naming the edited vector, 2 on a bad report or vector path', async (t) => {
  const { vectorsDir, reportFile, dir } = await makeSuite();
  const ok = await execa('node', [BIN, 'verify-report', reportFile, '--vectors', vectorsDir], { reject: false });
  t.equal(ok.exitCode, 0, ok.stderr);
  t.match(ok.stdout, /OK: all 3 vectors/);

  const json = await execa('node', [BIN, 'verify-report', reportFile, '--vectors', vectorsDir, '--json'], { reject: false });
  t.equal(JSON.parse(json.stdout).ok, true);

  const file = path.join(vectorsDir, 'a/first.json');
  await writeFile(file, (await readFile(file, 'utf8')).replace('Deny at input', 'Deny at inpuT'));
  const bad = await execa('node', [BIN, 'verify-report', reportFile, '--vectors', vectorsDir], { reject: false });
  t.equal(bad.exitCode, 1);
  t.match(bad.stdout, /changed: {2}AH-CTK-901-digest-probe/);

  const missing = await execa('node', [BIN, 'verify-report', path.join(dir, 'nope.json'), '--vectors', vectorsDir], { reject: false });
  t.equal(missing.exitCode, 2);
  t.match(missing.stderr, /nope\.json: no such report file/);
  t.notMatch(missing.stderr, /\n\s+at /, 'no stack trace');

  await writeFile(path.join(dir, 'garbage.json'), '{"ctk": {"name": "x"}}');
  const garbage = await execa('node', [BIN, 'verify-report', path.join(dir, 'garbage.json'), '--vectors', vectorsDir], { reject: false });
  t.equal(garbage.exitCode, 2);
  t.match(garbage.stderr, /garbage\.json: not a conformance report: ctk\.version: missing/);

  const noDir = await execa('node', [BIN, 'verify-report', reportFile, '--vectors', path.join(dir, 'absent')], { reject: false });
  t.equal(noDir.exitCode, 2);
  t.match(noDir.stderr, /absent: no such file or directory/);

  const noFlag = await execa('node', [BIN, 'verify-report', reportFile], { reject: false });
  t.equal(noFlag.exitCode, 1, 'without --vectors it checks the package vectors/, which this hand-written report did not run');
  await rm(dir, { recursive: true });
});

t.test('verify-report reads vectors as run does: a BOM is ignored, invalid UTF-8 is unreadable (not a silent U+FFFD)', async (t) => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const os = await import('node:os');
  const { fingerprintVectors } = await import('../ctk/vector-source.js');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ctk-verify-utf8-'));
  const vector = '{"id":"AH-CTK-998","title":"t","spec_clause":"3.1","scenario":{"input":{"content":"x","role":"user"}},"interceptor_script":[],"expect":{"interceptions":[],"run_outcome":"completed"}}';
  writeFileSync(path.join(dir, 'bom.json'), '\uFEFF' + vector);
  writeFileSync(path.join(dir, 'bad.json'), Buffer.concat([Buffer.from('{"id":"AH-CTK-997","title":"'), Buffer.from([0xff]), Buffer.from('"}')]));
  const source = fingerprintVectors([dir]);
  t.same(source.vectors.map((v) => v.id), ['AH-CTK-998'], 'the BOM vector is read');
  t.equal(source.unreadable.length, 1);
  t.match(source.unreadable[0]!.problem, /not valid UTF-8/);
});
