// The build-time vector-file validator: loaded once, and it judges vector files.
import t from 'tap';
import { vectorFileValidator } from './vector-schema.js';

t.test('vectorFileValidator: one validator, loaded on first use, that refuses a non-vector', async (t) => {
  const v = vectorFileValidator();
  t.type(v, 'function');
  t.equal(vectorFileValidator(), v, 'the same validator every time');
  t.equal(v({ not: 'a vector' }), false);
  t.ok((v.errors ?? []).length > 0, 'with the errors it found');
});
