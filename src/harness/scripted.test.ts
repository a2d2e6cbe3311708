// constructedVerdict: a scripted verdict rebuilt with the Verdict constructors is the verdict written, in both forms.
import t from 'tap';
import type { Json } from '../core/types.js';
import { constructedVerdict } from './scripted.js';

t.test('§5.1 verdicts the constructors can say are rebuilt deep-equal, in both forms, as fresh objects', async (t) => {
  const cases: Json[] = [
    { decision: 'allow' },
    { decision: 'allow', reason: 'ok', result_labels: ['a', 'b'] },
    { decision: 'allow', warnings: [{ reason: 'w', message: 'careful' }] },
    { decision: 'allow', reason: 'r', warnings: [{ reason: 'w' }, { message: 'm' }], evidence: { k: [1] } },
    { decision: 'allow', warnings: [{ reason: 'w', extra: 1 }] },
    { decision: 'allow', warnings: [] },
    { decision: 'deny' },
    { decision: 'deny', reason: 'refund_over_limit', message: 'no', result_labels: ['x'] },
    { decision: 'deny', reason: 'r', approval: {} },
    { decision: 'deny', message: 'm', approval: { resolver: 'human' }, warnings: [{ reason: 'w' }] },
    { decision: 'transform', transform: { path: '$target.a', value: { b: [1, null] } } },
    { decision: 'transform', transform: { path: '$target', value: null }, reason: 'redact', result_labels: ['pii'] },
  ];
  for (const v of cases) {
    for (const form of ['positional', 'options'] as const) {
      const got = constructedVerdict(v, form);
      t.same(got, v, `${form}: ${JSON.stringify(v)}`);
      t.not(got, v, 'a fresh object');
      t.same(Object.keys(got as object).sort(), Object.keys(v as object).sort(), 'no member added, even undefined');
    }
  }
});

t.test('what the constructors cannot say is handed back as it is (the host gate judges it)', async (t) => {
  const raw: Json[] = [
    { decision: 'warn' },
    { decision: 'allow', approval: {} },
    { decision: 'allow', reason: 7 },
    { decision: 'allow', unknown: true },
    { decision: 'transform', transform: { path: '$target' } },
    { decision: 'transform', transform: { path: '$target', value: 1, extra: 2 } },
    { decision: 'deny', approval: [] },
    { decision: 'deny', result_labels: [1] },
    { decision: 'allow', warnings: ['w'] },
    'allow',
    null,
    [{ decision: 'allow' }],
  ];
  for (const v of raw) t.equal(constructedVerdict(v, 'positional'), v, JSON.stringify(v));
});
