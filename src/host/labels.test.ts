// §4.6 namespaces and §5.4 label sets (labels.ts): the rules no vector can vary, since the CTK names its interceptors
// ctk-0, ctk-1, … (the mutation run's `Stryker disable` comments in labels.ts name these tests).
import t from 'tap';
import { deriveNamespace, isEmptyLabels, labelsToExtensions, mergeLabels, NamespaceError, validateNamespace } from './labels.js';

t.test('validateNamespace: ^[a-z][a-z0-9_]*$ and not reserved, else a NamespaceError saying why (§4.6)', async (t) => {
  for (const ok of ['a', 'refund_guard', 'g2', 'acs_x', 'ctk_0']) t.equal(validateNamespace(ok), ok);
  for (const bad of ['', 'A', '1a', 'a-b', 'a b', '_a', 'ab!', 'aB', 7, null]) t.throws(() => validateNamespace(bad), { name: 'NamespaceError', message: /it must match \^\[a-z\]\[a-z0-9_\]\*\$ \(§4\.6\)$/ }, String(bad));
  for (const reserved of ['acs', 'ctk', 'agent_hooks']) t.throws(() => validateNamespace(reserved), { message: `interceptor namespace "${reserved}" is rejected: acs, ctk and agent_hooks are reserved by the spec (§4.6)` });
  t.equal(new NamespaceError('x', 'why').name, 'NamespaceError');
});

t.test('deriveNamespace: the name lowercased, [^a-z0-9_] → _, i_ before a non-letter start or a reserved name; interceptor_<index> without one', async (t) => {
  t.equal(deriveNamespace('RefundGuard', 0), 'refundguard');
  t.equal(deriveNamespace('ctk-0', 0), 'ctk_0');
  t.equal(deriveNamespace('ctk', 3), 'i_ctk');
  t.equal(deriveNamespace('ACS', 0), 'i_acs');
  t.equal(deriveNamespace('agent hooks', 0), 'i_agent_hooks');
  t.equal(deriveNamespace('9lives', 0), 'i_9lives');
  t.equal(deriveNamespace('-x', 0), 'i__x');
  t.equal(deriveNamespace('Ünïcode', 0), 'i__n_code');
  t.equal(deriveNamespace(undefined, 4), 'interceptor_4');
  t.equal(deriveNamespace('', 5), 'interceptor_5');
  for (const n of ['RefundGuard', 'ctk-0', 'ctk', '9lives', 'Ünïcode']) t.equal(validateNamespace(deriveNamespace(n, 0)), deriveNamespace(n, 0), `${n}: derived namespaces are valid`);
});

t.test('mergeLabels: ordered union per namespace, first-seen order, no duplicates, empty namespaces dropped, inputs untouched', async (t) => {
  const a = { g: ['pii', 'fin'] };
  const b = { g: ['fin', 'hr'], h: ['x'], e: [] };
  t.same(mergeLabels(a, undefined, b), { g: ['pii', 'fin', 'hr'], h: ['x'] });
  t.same(a, { g: ['pii', 'fin'] }, 'inputs are not modified');
  t.same(mergeLabels(), {});
  t.same(mergeLabels({ e: [] }), {});
  t.same(Object.keys(mergeLabels({ z: ['1'] }, { a: ['2'] })), ['z', 'a']);
});

t.test('isEmptyLabels and labelsToExtensions: nothing to resurface is no extensions member at all', async (t) => {
  t.equal(isEmptyLabels({}), true);
  t.equal(isEmptyLabels({ g: ['x'] }), false);
  t.equal(labelsToExtensions({}), undefined);
  const set = { g: ['pii'], h: ['a', 'b'] };
  const ext = labelsToExtensions(set);
  t.same(ext, { g: { source_labels: ['pii'] }, h: { source_labels: ['a', 'b'] } });
  (ext!.g as { source_labels: string[] }).source_labels.push('changed');
  t.same(set.g, ['pii'], 'a copy, not the persisted list');
});
