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
  t.same(s.postures, { tool_seam_host_error: 'continue' });
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
    [{ ...minimal, postures: { tool_seam_host_error: 'retry' } }, /\/postures\/tool_seam_host_error/],
    [{ ...minimal, colour: 'blue' }, /\/colour: unknown member/],
    [{ ...minimal, capabilities: ['incremental_output'] }, /contradicts buffered_output/],
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
