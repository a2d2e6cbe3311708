import t from 'tap';
import { defaultVectorPaths, loadVectors } from './load.js';
import { selectSuite, SelectionError } from './selection.js';

const all = loadVectors(defaultVectorPaths());
const ids = (filters: Parameters<typeof selectSuite>[1]) => selectSuite(all, filters).vectors.map((lv) => lv.vector.id);

t.test('no filter: the whole suite, no selection recorded (a claim may cover it)', async (t) => {
  const s = selectSuite(all, {});
  t.equal(s.vectors.length, all.length);
  t.equal(s.selection, undefined);
});

t.test('--exclude-part and --exclude-grep leave out what --part and --grep would select', async (t) => {
  const composition = ids({ parts: ['composition'] });
  const rest = ids({ excludeParts: ['composition'] });
  t.ok(composition.length > 0 && rest.length > 0);
  t.same([...composition, ...rest].sort(), all.map((lv) => lv.vector.id).sort(), 'a part and its exclusion split the suite');
  t.ok(all.filter((lv) => rest.includes(lv.vector.id)).every((lv) => !lv.part.startsWith('composition')), 'sub-parts excluded too');
  const transform = ids({ grep: 'transform' });
  const notTransform = ids({ excludeGrep: 'transform' });
  t.same([...transform, ...notTransform].sort(), all.map((lv) => lv.vector.id).sort());
  t.same(ids({ parts: ['composition'], excludeParts: ['composition/parallel_strictest'] }).length, composition.length - ids({ parts: ['composition/parallel_strictest'] }).length, 'filters combine');
  const sel = selectSuite(all, { excludeGrep: 'transform', excludeParts: ['bounds'] }).selection;
  t.same(sel, { loaded: all.length, exclude_grep: 'transform', exclude_parts: ['bounds'] }, 'recorded in the report');
});

t.test('--capability: the vectors that need one of the capabilities, declared or implied', async (t) => {
  const hang = selectSuite(all, { capabilities: ['hang_faults'] }).vectors;
  t.ok(hang.length > 0);
  t.ok(hang.every((lv) => lv.requiredCapabilities.includes('hang_faults')));
  t.equal(hang.length, all.filter((lv) => lv.requiredCapabilities.includes('hang_faults')).length);
  const either = ids({ capabilities: ['hang_faults', 'multi_turn'] });
  t.equal(either.length, all.filter((lv) => lv.requiredCapabilities.some((c) => c === 'hang_faults' || c === 'multi_turn')).length);
  t.same(selectSuite(all, { capabilities: ['multi_turn'] }).selection?.capabilities, ['multi_turn']);
});

t.test('a filter that cannot apply is refused, naming the flag', async (t) => {
  t.throws(() => selectSuite(all, { capabilities: ['teleport'] }), SelectionError);
  t.throws(() => selectSuite(all, { capabilities: ['teleport'] }), /--capability: unknown capability teleport \(known: model_calls, /);
  t.throws(() => selectSuite(all, { excludeParts: ['nope'] }), /--exclude-part: no part is named "nope" \(parts: /);
  t.throws(() => selectSuite(all, { excludeGrep: '(' }), /--exclude-grep: invalid regular expression/);
  t.throws(() => selectSuite(all, { grep: '[' }), /--grep: invalid regular expression/);
});
