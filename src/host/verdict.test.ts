// §5.1 constructor sugar: every constructor yields a §5-valid verdict of the documented shape.
import t from 'tap';
import { validateVerdict } from '../core/index.js';
import { Verdict, isLiftable, isPermit } from './verdict.js';

t.test('Verdict constructors produce the §5 shapes and pass the gate', async (t) => {
  const cases = [
    [Verdict.allow(), { decision: 'allow' }],
    [Verdict.deny('r', 'm'), { decision: 'deny', reason: 'r', message: 'm' }],
    [Verdict.transform('$target.a', 1), { decision: 'transform', transform: { path: '$target.a', value: 1 } }],
    [Verdict.warn('w', 'careful'), { decision: 'allow', warnings: [{ reason: 'w', message: 'careful' }] }],
    [Verdict.escalate('refund_over_limit', 'requires human approval'), { decision: 'deny', reason: 'refund_over_limit', message: 'requires human approval', approval: {} }],
  ] as const;
  for (const [got, want] of cases) {
    t.same(got, want);
    t.equal(validateVerdict(got).ok, true, JSON.stringify(want));
  }
});

t.test('§5.1: warn is an allow (no warn decision); escalate is a liftable deny (no escalate decision)', async (t) => {
  t.equal(Verdict.warn('x').decision, 'allow');
  t.ok(isPermit(Verdict.warn('x')));
  t.ok(isPermit({ decision: 'allow' }));
  t.ok(isPermit({ decision: 'transform', transform: { path: '$target', value: 1 } }));
  t.notOk(isPermit({ decision: 'deny' }));
  t.notOk(isPermit({ decision: 'deny', approval: {} }));
  t.ok(isLiftable(Verdict.escalate('x')));
  t.notOk(isLiftable(Verdict.deny('x')));
  t.same(Verdict.escalate('x', undefined, { resolver: 'host' }).approval, { resolver: 'host' });
});

t.test('extras are copied, not shared', async (t) => {
  const labels = ['a'];
  const v = Verdict.allow({ result_labels: labels, reason: 'ok' });
  labels.push('b');
  t.same(v, { decision: 'allow', reason: 'ok', result_labels: ['a'] });
});

t.test('options-object forms match the positional ones', async (t) => {
  t.same(Verdict.escalate({ reason: 'refund_over_limit', message: 'requires human approval' }), Verdict.escalate('refund_over_limit', 'requires human approval'));
  t.same(Verdict.deny({ reason: 'r', message: 'm' }), Verdict.deny('r', 'm'));
  t.same(Verdict.warn({ reason: 'w', message: 'm' }), Verdict.warn('w', 'm'));
  t.same(Verdict.escalate({ reason: 'r', approval: { ticket: 'T-1' } }).approval, { ticket: 'T-1' });
});
