// §11: the reserved-reason table and the host_error: prefix test.
import t from 'tap';
import { HOST_ERROR, HOST_ERROR_PREFIX, RESERVED_REASONS, isHostErrorReason } from './reasons.js';

t.test('§11 table: every reserved reason once, in the spec order, each with its cause', async (t) => {
  t.same(
    RESERVED_REASONS.map((r) => r.reason),
    Object.values(HOST_ERROR),
    'the table lists the fourteen reasons of HOST_ERROR, in that order',
  );
  t.equal(RESERVED_REASONS.length, 14);
  // Each cause names what the reason stands for (a word of the spec's own cause text, not its sentence).
  const keyword: Record<string, RegExp> = {
    context_invalid: /AgentContext/,
    interceptor_failed: /raised/,
    interceptor_timeout: /timeout/,
    verdict_invalid: /§5/,
    transform_invalid: /resolve/,
    transform_target_forbidden: /\$target/,
    transform_conflict: /snapshot/,
    composition_disagreement: /unanimous/,
    approval_resolver_failed: /resolver/,
    approval_unresolved: /unresolved/,
    approval_identity_mismatch: /context_identity/,
    adapter_unsupported: /adapter/,
    no_interceptor: /zero/,
    streaming_unsupported: /§12/,
  };
  for (const r of RESERVED_REASONS) {
    const name = r.reason.slice(HOST_ERROR_PREFIX.length);
    t.match(r.cause, keyword[name]!, `${r.reason}: its cause`);
  }
});

t.test('§5, §11: isHostErrorReason is true for a string with the host_error: prefix only', async (t) => {
  t.ok(isHostErrorReason('host_error:context_invalid'));
  t.ok(isHostErrorReason('host_error:'));
  t.notOk(isHostErrorReason('policy:host_error:x'));
  t.notOk(isHostErrorReason('HOST_ERROR:x'));
  for (const v of [undefined, null, 42, true, ['host_error:x'], { reason: 'host_error:x' }]) t.notOk(isHostErrorReason(v), `not a string: ${JSON.stringify(v)}`);
});
