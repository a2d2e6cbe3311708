// schema/harness-protocol.schema.json describes the real traffic: every line of a Python-host run over
// a slice of the suite validates, and every result validates against the $def of its request's method.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { PACKAGE_ROOT } from '../../version.js';
import { defaultVectorPaths, loadVectors } from '../../ctk/load.js';
import { runSuite } from '../../ctk/runner.js';
import { toPlainJson } from '../../ctk/json.js';
import { createStdioHarness } from './client.js';

const schema = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'schema/harness-protocol.schema.json'), 'utf8')) as Record<string, unknown>;
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema(schema);
const base = schema.$id as string;
const validate = (ref: string, value: unknown) => {
  const fn = ajv.getSchema(`${base}${ref}`)!;
  return fn(value) ? null : ajv.errorsText(fn.errors);
};

const RESULT_DEF: Record<string, string | null> = {
  describe: 'HostSurface',
  run: 'RunReport',
  setup: null,
  teardown: null,
  intercept: 'InterceptorAction',
  resolve: 'ResolverAction',
  model: 'ModelResponse',
  tool: 'ToolCallResult',
};

t.test('every message of a real run validates against the protocol schema', async (t) => {
  const traffic: Array<{ direction: string; message: Record<string, unknown> }> = [];
  const harness = createStdioHarness({
    command: `python3 ${JSON.stringify(path.join(PACKAGE_ROOT, 'examples/python-host/host.py'))}`,
    onMessage: (direction, message) => traffic.push({ direction, message: toPlainJson(message) as Record<string, unknown> }),
  });
  t.teardown(() => harness.close?.());
  const surface = await harness.describe();
  const vectors = loadVectors(defaultVectorPaths()).filter((lv) => /^(approval_seam|verdict\/transform|evaluate_only|fail_closed)$/.test(lv.part));
  await runSuite(vectors, { harness, surface, harnessLabel: 'python', timeoutMs: 20_000 });
  t.ok(traffic.length > 100, `${traffic.length} messages seen`);

  const methodOf = new Map<string, string>();
  const seenMethods = new Set<string>();
  for (const { direction, message } of traffic) {
    const problem = validate('', message);
    if (problem) t.fail(`${direction} ${JSON.stringify(message).slice(0, 200)}: ${problem}`);
    if (typeof message.method === 'string') {
      methodOf.set(`${direction}:${String(message.id)}`, message.method);
      seenMethods.add(message.method);
    } else if ('result' in message) {
      const requestDirection = direction === 'to-host' ? 'from-host' : 'to-host';
      const method = methodOf.get(`${requestDirection}:${String(message.id)}`);
      t.ok(method, `response ${String(message.id)} pairs with a request`);
      const def = method ? RESULT_DEF[method] : null;
      if (def) {
        const bad = validate(`#/$defs/${def}`, message.result);
        if (bad) t.fail(`${method} result ${JSON.stringify(message.result).slice(0, 200)}: ${bad}`);
      } else if (method) {
        t.equal(message.result, null, `${method} answers null`);
      }
    }
  }
  t.same([...seenMethods].sort(), ['describe', 'intercept', 'model', 'resolve', 'run', 'setup', 'teardown', 'tool']);
});
