// The errors the spec core throws: their reason, remediation, message and name.
import t from 'tap';
import { ContextInvalidError, IdentityDomainError } from './errors.js';

t.test('ContextInvalidError: reason host_error:context_invalid, the remediation, a message that starts with the reason', async (t) => {
  const cause = new Error('inner');
  const e = new ContextInvalidError('send JSON only', { cause });
  t.equal(e.reason, 'host_error:context_invalid');
  t.equal(e.remediation, 'send JSON only');
  t.equal(e.message, 'host_error:context_invalid: send JSON only');
  t.equal(e.name, 'ContextInvalidError');
  t.equal(e.cause, cause);
  t.ok(e instanceof Error);
});

t.test('IdentityDomainError is a ContextInvalidError of its own name', async (t) => {
  const e = new IdentityDomainError('string-encode 64-bit identifiers');
  t.ok(e instanceof ContextInvalidError);
  t.equal(e.reason, 'host_error:context_invalid');
  t.equal(e.remediation, 'string-encode 64-bit identifiers');
  t.equal(e.message, 'host_error:context_invalid: string-encode 64-bit identifiers');
  t.equal(e.name, 'IdentityDomainError');
});
