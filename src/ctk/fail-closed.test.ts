import t from 'tap';
import { FAIL_CLOSED_CHECK, failClosedFailure } from './fail-closed.js';

t.test('a host_error the host raised is its fail-closed defect, citing the sentence', async (t) => {
  const f = failClosedFailure('stdio host answered run with an error: AgentHooksCoreError: host_error:context_invalid');
  t.equal(f?.check, FAIL_CLOSED_CHECK);
  t.equal(f?.clause, '6.3');
  t.match(f?.message, /raised host_error:context_invalid out of the run instead of recording it as a deny \(§6\.3: .*MUST treat the emission as/);
  t.match(f?.message, /AgentHooksCoreError/, 'the host\'s own error text is kept');
  const other = failClosedFailure('host_error:verdict_invalid raised by the core');
  t.equal(other?.clause, '1.3');
  t.match(other?.message, /MUST treat the outcome as deny with a host_error:\* reason per §11/);
});

t.test('any other error is no fail-closed finding', async (t) => {
  t.equal(failClosedFailure('TypeError: cannot read properties of undefined'), undefined);
  t.equal(failClosedFailure('not_a_host_error:context_invalid'), undefined);
});
