import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { effectiveSurface, readSurfaceFile, SurfaceError, validateSurface } from './surface.js';

const minimal = { name: 'h', version: '1', profiles: { 'sequential/first_deny': { on_approval: ['stop'] } } };

t.test('defaults are filled', async (t) => {
  const s = validateSurface(minimal, 'x');
  t.same(s.capabilities, []);
  t.equal(s.buffered_output, true);
  t.same(s.identity_providers, ['jcs-sha256']);
  t.same(s.modes, ['enforce', 'evaluate_only']);
  t.same(s.postures, { tool_seam_host_error: 'continue', stop_approval_fold_truncated: 'when_skipped' }, 'every registered posture at its default');
});

t.test('bad surfaces are rejected with the member named', async (t) => {
  const bad: Array<[Record<string, unknown>, RegExp]> = [
    [{ ...minimal, name: '' }, /\/name: must be a non-empty string/],
    [{ ...minimal, capabilities: ['teleport'] }, /\/capabilities\/0: unknown capability "teleport"/],
    [{ ...minimal, profiles: { 'parallel/quorum': {} } }, /\/profiles\/parallel\/quorum: unknown profile/],
    [{ ...minimal, profiles: { 'sequential/run_all': { on_approval: ['stop'] } } }, /does not consult on_approval/],
    [{ ...minimal, profiles: { 'sequential/first_deny': { on_approval: ['maybe'] } } }, /must be one of stop, resume/],
    [{ ...minimal, identity_providers: ['JCS'] }, /\/identity_providers\/0/],
    [{ ...minimal, modes: ['observe'] }, /\/modes\/0/],
    [{ ...minimal, postures: { tool_seam_host_error: 'retry' } }, /\/postures\/tool_seam_host_error: must be one of "continue" or "terminate"/],
    [{ ...minimal, postures: { retry_policy: 'twice' } }, /\/postures\/retry_policy: unknown posture \(known: tool_seam_host_error, stop_approval_fold_truncated\)/],
    [{ ...minimal, postures: { stop_approval_fold_truncated: 'never' } }, /\/postures\/stop_approval_fold_truncated: must be one of "when_skipped" or "always"/],
    [{ ...minimal, profiles: { 'parallel/unanimous': { on_disagreement: ['deny'], on_transform_conflict: ['deny'] } } }, /\/profiles\/parallel\/unanimous\/on_transform_conflict: profile parallel\/unanimous does not consult on_transform_conflict: it consults on_disagreement only/],
    [{ ...minimal, colour: 'blue' }, /\/colour: unknown member/],
    [{ ...minimal, capabilities: ['incremental_output'] }, /contradicts buffered_output/],
    [{ ...minimal, not_declared: ['streaming'] }, /\/not_declared: must map what is not declared to why/],
    [{ ...minimal, not_declared: { streaming: '' } }, /\/not_declared\/streaming: must be a non-empty string/],
  ];
  for (const [value, re] of bad) t.throws(() => validateSurface(value, 'host.yaml'), { name: 'SurfaceError', message: re });
});

t.test('§12.1a / §13.1: exposure_bound is stated with buffered_output false, and required with incremental_output', async (t) => {
  const ok = validateSurface({ ...minimal, buffered_output: false, capabilities: ['streaming', 'incremental_output'], exposure_bound: 'none: release is watermark-gated' }, 'host.yaml');
  t.equal(ok.exposure_bound, 'none: release is watermark-gated');
  t.equal(validateSurface({ ...minimal, buffered_output: false, exposure_bound: 'each chunk egresses on arrival' }, 'h').exposure_bound, 'each chunk egresses on arrival');
  const bad: Array<[unknown, RegExp]> = [
    [{ ...minimal, buffered_output: false, capabilities: ['incremental_output'] }, /\/exposure_bound: incremental_output is declared, so the exposure bound must be stated/],
    [{ ...minimal, exposure_bound: 'none' }, /\/exposure_bound: an exposure bound is stated only with buffered_output: false/],
    [{ ...minimal, buffered_output: false, exposure_bound: 7 }, /\/exposure_bound: must be a non-empty string/],
    [{ ...minimal, buffered_output: false, exposure_bound: ' ' }, /\/exposure_bound: must be a non-empty string/],
  ];
  for (const [value, re] of bad) t.throws(() => validateSurface(value, 'host.yaml'), { name: 'SurfaceError', message: re });
});

t.test('not_declared (what the host lacks, and why) is kept for the claim', async (t) => {
  const s = validateSurface({ ...minimal, not_declared: { structured_model_content: 'text-only model interface' } }, 'h');
  t.same(s.not_declared, { structured_model_content: 'text-only model interface' });
});

t.test('a YAML --surface file overrides the described surface member by member', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-surface-'));
  const file = path.join(dir, 'host.yaml');
  writeFileSync(file, 'capabilities: [model_calls]\nmodes: [enforce]\n');
  const s = effectiveSurface({ ...minimal, capabilities: ['tool_calls'] }, readSurfaceFile(file), file);
  t.same(s.capabilities, ['model_calls']);
  t.same(s.modes, ['enforce']);
  t.equal(s.name, 'h');
  writeFileSync(file, 'capabilities: [model_calls\n');
  t.throws(() => readSurfaceFile(file), SurfaceError);
  t.throws(() => readSurfaceFile(path.join(dir, 'missing.yaml')), /cannot read surface file/);
});
