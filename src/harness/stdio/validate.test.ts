import t from 'tap';
import { checkSurface } from './validate.js';
import { HARNESS_PROTOCOL } from '../contract.js';

const described = (extra: Record<string, unknown>) => ({
  name: 'h',
  version: '1',
  protocol: HARNESS_PROTOCOL,
  capabilities: [],
  profiles: { 'sequential/first_deny': { on_approval: ['stop'] } },
  identity_providers: ['jcs-sha256'],
  modes: ['enforce'],
  ...extra,
});

t.test('stdio describe: postures come from the registry, defaults filled, unknown names refused', async (t) => {
  const ok = checkSurface(described({}));
  t.ok(ok.ok);
  if (ok.ok) t.same(ok.value.postures, { tool_seam_host_error: 'continue', stop_approval_fold_truncated: 'when_skipped' });
  t.match(checkSurface(described({ postures: { retry_policy: 'twice' } })), { ok: false, problem: /describe\.postures\.retry_policy unknown posture/ });
  t.match(checkSurface(described({ postures: { tool_seam_host_error: 'retry' } })), { ok: false, problem: /describe\.postures\.tool_seam_host_error must be one of "continue" or "terminate"/ });
});

t.test('stdio describe: a knob the profile never consults is refused (§7.2: unanimous consults on_disagreement only)', async (t) => {
  const r = checkSurface(described({ profiles: { 'parallel/unanimous': { on_disagreement: ['deny'], on_transform_conflict: ['deny'] } } }));
  t.match(r, { ok: false, problem: /describe\.profiles\["parallel\/unanimous"\]\.on_transform_conflict: profile parallel\/unanimous does not consult on_transform_conflict: it consults on_disagreement only/ });
  t.ok(checkSurface(described({ profiles: { 'parallel/unanimous': { on_disagreement: ['deny', 'approval'] } } })).ok);
});

t.test('stdio describe: a capability only an in-process harness can carry out is refused, each by name', async (t) => {
  for (const cap of ['projection_faults', 'non_json_verdicts']) {
    const r = checkSurface(described({ capabilities: ['model_calls', cap] }));
    t.match(r, { ok: false, problem: `describe.capabilities declares ${cap}, which only an in-process harness can carry out` }, cap);
  }
});
