import t from 'tap';
import { skipOf, skipReason } from './skip.js';
import { baseVector, loaded } from './test-vectors.test.util.js';
import type { HostSurface } from '../harness/contract.js';

const surface: HostSurface = {
  name: 'h',
  version: '1',
  capabilities: ['model_calls', 'tool_calls'],
  buffered_output: true,
  profiles: {
    'sequential/first_deny': { on_approval: ['stop'] },
    'parallel/unanimous': { on_disagreement: ['deny'] },
  },
  identity_providers: ['jcs-sha256', null],
  modes: ['enforce'],
  postures: { tool_seam_host_error: 'continue' },
};

t.test('applicable vectors are not skipped', async (t) => {
  t.equal(skipReason(loaded(baseVector()), surface), undefined);
  t.equal(skipReason(loaded(baseVector({ identity_provider: null })), surface), undefined);
  t.equal(skipReason(loaded(baseVector({ composition: { profile: 'parallel/unanimous' } })), surface), undefined, 'unanimous needs on_disagreement only (§7.2)');
});

t.test('each part of the declared surface decides a skip, with the exact reason', async (t) => {
  const cases: Array<[Record<string, unknown>, string, string, string]> = [
    [{ capabilities: ['model_calls', 'streaming'] }, 'capability', 'streaming', 'host does not declare capability streaming'],
    [{ capabilities: ['streaming', 'multi_turn'] }, 'capability', 'streaming', 'host does not declare capabilities streaming, multi_turn'],
    [{ interceptor_script: [{ at: 'input', fault: 'hang' }] }, 'capability', 'hang_faults', 'host does not declare capability hang_faults'],
    [{ composition: { profile: 'sequential/run_all' } }, 'profile', 'sequential/run_all', 'host does not declare profile sequential/run_all'],
    [{ composition: { profile: 'parallel/unanimous', on_disagreement: 'approval' } }, 'knob', 'on_disagreement=approval', 'host does not declare profile parallel/unanimous with on_disagreement=approval'],
    [{ composition: { profile: 'sequential/first_deny', on_approval: 'resume' } }, 'knob', 'on_approval=resume', 'host does not declare profile sequential/first_deny with on_approval=resume'],
    [{ identity_provider: 'ctk-fault' }, 'identity_provider', 'ctk-fault', 'host does not declare identity provider ctk-fault'],
    [{ mode: 'evaluate_only' }, 'mode', 'evaluate_only', 'host does not declare mode evaluate_only'],
    [{ postures: { tool_seam_host_error: 'terminate' } }, 'posture', 'tool_seam_host_error', 'host does not declare posture tool_seam_host_error=terminate (it declares tool_seam_host_error=continue)'],
  ];
  for (const [overrides, kind, member, reason] of cases) {
    t.same(skipOf(loaded(baseVector(overrides)), surface), { kind, member, reason }, reason);
    t.equal(skipReason(loaded(baseVector(overrides)), surface), reason);
  }
  const noDefaultKnob: HostSurface = { ...surface, profiles: { 'sequential/first_deny': { on_approval: ['resume'] } } };
  t.equal(skipReason(loaded(baseVector()), noDefaultKnob), 'host does not declare profile sequential/first_deny with on_approval=stop', 'an unset knob uses its §7.2 default, which must be declared too');
  t.same(skipOf(loaded(baseVector({ identity_provider: null })), { ...surface, identity_providers: ['jcs-sha256'] }), { kind: 'identity_provider', member: 'null', reason: 'host does not declare identity provider null' });
});

t.test('§13.1 postures: a posture-gated vector runs only on a host declaring exactly that value', async (t) => {
  const terminate = loaded(baseVector({ postures: { tool_seam_host_error: 'terminate' } }));
  t.equal(skipReason(terminate, surface), 'host does not declare posture tool_seam_host_error=terminate (it declares tool_seam_host_error=continue)');
  t.equal(skipReason(terminate, { ...surface, postures: { tool_seam_host_error: 'terminate' } }), undefined);
  const always = loaded(baseVector({ postures: { stop_approval_fold_truncated: 'always' } }));
  t.equal(skipReason(always, { ...surface, postures: {} }), 'host does not declare posture stop_approval_fold_truncated=always (it declares stop_approval_fold_truncated=when_skipped)', 'an undeclared posture is its registry default');
  t.equal(skipReason(loaded(baseVector({ postures: { stop_approval_fold_truncated: 'when_skipped' } })), { ...surface, postures: {} }), undefined);
});

t.test('readings: a reading-gated vector runs only on a host taking exactly that reading (undeclared: the default)', async (t) => {
  const none = loaded(baseVector({ readings: { errored_model_call: 'none' } }));
  t.same(skipOf(none, surface), { kind: 'reading', member: 'errored_model_call', reason: 'host does not declare reading errored_model_call=none (it declares errored_model_call=post_model_call)' });
  t.equal(skipReason(none, { ...surface, readings: { errored_model_call: 'none' } }), undefined);
  t.equal(skipReason(loaded(baseVector({ readings: { errored_model_call: 'post_model_call' } })), surface), undefined);
});
