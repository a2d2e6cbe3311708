// §11: a host synthesizes only the reserved reasons, and only those (interceptors may not).
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { HOST_ERROR, RESERVED_REASONS, isHostErrorReason } from '../core/index.js';
import { PACKAGE_ROOT } from '../version.js';
import { allow, answering, emitterWith, escalate, toolFields, transform } from './fixtures.test.util.js';

const reserved = new Set<string>(RESERVED_REASONS.map((r) => r.reason));

t.test('§11: every host_error reason named in the host source is a reserved one', async (t) => {
  const dir = path.join(PACKAGE_ROOT, 'src', 'host');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.includes('.test.'))) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    for (const m of text.matchAll(/HOST_ERROR\.([a-z_]+)/g)) t.ok(m[1]! in HOST_ERROR, `${file}: HOST_ERROR.${m[1]}`);
    for (const m of text.matchAll(/'(host_error:[a-z_]+)'/g)) t.ok(reserved.has(m[1]!), `${file}: ${m[1]}`);
  }
});

t.test('§11: the reasons synthesized across failure scenarios are all reserved', async (t) => {
  const reasons = new Set<string>();
  const run = async (...args: Parameters<typeof emitterWith>) => {
    const em = await emitterWith(...args).emit('pre_tool_call', toolFields({ a: 1 }));
    if (em.verdict.reason) reasons.add(em.verdict.reason);
  };
  await run([]);
  await run([{ intercept: () => { throw new Error('x'); } }]);
  await run([answering({ decision: 'nope' })]);
  await run([answering(transform('$.a', 1))]);
  await run([answering(transform('$target.b.c', 1))]);
  await run([answering(transform('$target.a', 1)), answering(transform('$target.a', 2))], { composition: { profile: 'parallel/strictest' } });
  await run([answering(transform('$target.a', 1))], { composition: { profile: 'parallel/unanimous' } });
  await run([answering(escalate())], { resolver: () => { throw new Error('x'); } });
  await run([answering(escalate())], { resolver: (r) => ({ outcome: 'unresolved', context_identity: r.context_identity }) });
  await run([answering(escalate())], { resolver: () => ({ outcome: 'approve', context_identity: 'sha256:0', verdict: allow }) });
  await run([answering(allow)], { identityProvider: { name: 'x', compute: () => { throw new Error('x'); } } });
  for (const r of reasons) t.ok(isHostErrorReason(r) && reserved.has(r), r);
  t.equal(reasons.size, 11, 'eleven distinct reserved reasons exercised');
});
