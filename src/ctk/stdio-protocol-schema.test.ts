// schema/harness-protocol.schema.json describes the real traffic: every line of a Python-host run over
// a slice of the suite validates, and every result validates against the $def of its request's method.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { PACKAGE_ROOT } from '../version.js';
import { defaultVectorPaths, loadVectors } from './load.js';
import { runSuite } from './runner.js';
import { toPlainJson } from './json.js';
import { createStdioHarness } from '../harness/stdio/client.js';

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
  model_chunk: 'ModelChunk',
  tool: 'ToolCallResult',
};

type Traffic = Array<{ direction: string; message: Record<string, unknown> }>;

/** Runs `parts` of the suite against `command` over stdio, recording every message in both directions. */
async function recordTraffic(command: string, parts: RegExp): Promise<Traffic> {
  const traffic: Traffic = [];
  const harness = createStdioHarness({ command, onMessage: (direction, message) => traffic.push({ direction, message: toPlainJson(message) as Record<string, unknown> }) });
  try {
    const surface = await harness.describe();
    const vectors = loadVectors(defaultVectorPaths()).filter((lv) => parts.test(lv.part));
    await runSuite(vectors, { harness, surface, harnessLabel: 'stdio', timeoutMs: 20_000 });
  } finally {
    await harness.close?.();
  }
  return traffic;
}

/** The assertions checkTraffic uses (a tap Test provides them). */
type Asserts = Pick<typeof t, 'fail' | 'ok' | 'equal'>;

/** Every message validates; every result validates against the $def of its request's method. Returns the methods seen. */
function checkTraffic(t: Asserts, traffic: Traffic): Set<string> {
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
  return seenMethods;
}

t.test('every message of a real run validates against the protocol schema', async (t) => {
  const traffic = await recordTraffic(`python3 ${JSON.stringify(path.join(PACKAGE_ROOT, 'examples/python-host/host.py'))}`, /^(approval_seam|verdict\/transform|evaluate_only|fail_closed)$/);
  t.ok(traffic.length > 100, `${traffic.length} messages seen`);
  const seenMethods = checkTraffic(t, traffic);
  t.same([...seenMethods].sort(), ['describe', 'intercept', 'model', 'resolve', 'run', 'setup', 'teardown', 'tool']);
});

t.test('streamed model answers ({stream}, model_chunk) validate too: the incremental reference host over stdio', async (t) => {
  const command = [process.execPath, path.join(PACKAGE_ROOT, 'bin/agent-hooks-ctk.js'), 'reference-host', '--stdio', '--incremental'].map((a) => JSON.stringify(a)).join(' ');
  const traffic = await recordTraffic(command, /^streaming\//);
  const seenMethods = checkTraffic(t, traffic);
  t.ok(seenMethods.has('model_chunk'), 'the host pulled chunks');
  const chunks = traffic.filter(({ message }) => 'result' in message && message.result !== null && typeof message.result === 'object' && 'partial' in (message.result as object));
  t.ok(chunks.length > 0, 'a truncated stream delivered its partial last chunk');
  const surface = traffic.find(({ message }) => (message.result as { exposure_bound?: string } | undefined)?.exposure_bound !== undefined);
  t.equal((surface?.message.result as { exposure_bound: string }).exposure_bound, 'none: release is watermark-gated');
});
