// The draft 2020-12 schemas: each accepts what the spec allows and rejects each shape it forbids.
import t from 'tap';
import {
  validateContextSchema, validateRecordSchema, validateVerdictSchema, validateApprovalRequestSchema, validateApprovalResolutionSchema,
  loadSchema, SCHEMA_NAMES,
} from './schemas.js';
import { INTERCEPTION_POINTS, type JsonObject } from './types.js';
import { validContext } from './fixtures.test.util.js';

const ok = (r: { ok: boolean }): boolean => r.ok;
const errs = (r: { ok: true } | { ok: false; errors: string[] }): string => (r.ok ? '' : r.errors.join(' | '));

t.test('every schema file is draft 2020-12 with an $id', async (t) => {
  for (const n of SCHEMA_NAMES) {
    const s = loadSchema(n) as { $schema?: string; $id?: string };
    t.equal(s.$schema, 'https://json-schema.org/draft/2020-12/schema', n);
    t.match(s.$id, /\.schema\.json$/, n);
  }
  for (const p of INTERCEPTION_POINTS) t.ok(loadSchema(`agent-context/${p}`), `per-point schema for ${p}`);
});

t.test('AgentContext: valid contexts, with §4.5 optional fields and §4.6 extensions', async (t) => {
  for (const p of INTERCEPTION_POINTS) {
    t.ok(ok(validateContextSchema(validContext(p))), `${p}: ${errs(validateContextSchema(validContext(p)))}`);
    const rich: JsonObject = {
      ...validContext(p),
      trace: { trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', span_id: '00f067aa0ba902b7' }, tenant: { id: 't', name: 'T' },
      actor: { id: 'u', kind: 'service' }, budgets: { tool_call_count: 1, token_count: 2, elapsed_seconds: 0.5, cost_usd: 0.1 },
      extensions: { acme: { anything: [1] } }, messages: [{ role: 'user', content: { parts: [] } }],
    };
    (rich.agent as JsonObject).name = 'n';
    (rich.session as JsonObject).turn = 0;
    if (p === 'pre_model_call') rich.target = rich.messages as never;
    t.ok(ok(validateContextSchema(rich)), `${p} with optional fields: ${errs(validateContextSchema(rich))}`);
  }
  const pm = { ...validContext('pre_model_call'), request_id: 'r', tools: [{ name: 'refund', description: 'd', schema: {} }] };
  t.ok(ok(validateContextSchema(pm)), errs(validateContextSchema(pm)));
  const post = { ...validContext('post_model_call'), usage: { prompt_tokens: 1, completion_tokens: 2 } };
  t.ok(ok(validateContextSchema(post)), errs(validateContextSchema(post)));
  const ptc = validContext('post_tool_call');
  (ptc.tool_result as JsonObject).duration_ms = 1.5;
  t.ok(ok(validateContextSchema(ptc)));
});

t.test('AgentContext: closed per point', async (t) => {
  const cases: Array<[string, JsonObject, RegExp]> = [
    ['unknown top-level member', { ...validContext('input'), x_custom: 1 }, /unknown member "x_custom"/],
    ['usage outside post_model_call', { ...validContext('output'), usage: {} }, /unknown member "usage"/],
    ['tools outside pre_model_call', { ...validContext('input'), tools: [] }, /unknown member "tools"/],
    ['model at a tool point', { ...validContext('pre_tool_call'), model: { id: 'm' } }, /unknown member "model"/],
    ['conditional field of another point', { ...validContext('input'), tool_call: { id: 'a', name: 'b', args: {} } }, /unknown member "tool_call"/],
    ['missing conditional', (() => { const c = validContext('output'); delete c.output; return c; })(), /required property 'output'/],
    ['unknown point', { ...validContext('input'), interception_point: 'on_error' }, /interception_point must be one of/],
    ['bad spec', { ...validContext('input'), spec: 'agent-hooks/1' }, /\/spec must match pattern/],
    ['bad framework', { ...validContext('input'), agent: { id: 'a', framework: 'Bad' } }, /\/agent\/framework/],
    ['bad timestamp', { ...validContext('input'), timestamp: 'yesterday' }, /\/timestamp/],
    ['negative sequence', { ...validContext('input'), sequence: -1 }, /\/sequence/],
    ['bad extension namespace', { ...validContext('input'), extensions: { 'Bad-NS': 1 } }, /\/extensions/],
    ['actor.kind enum', { ...validContext('input'), actor: { kind: 'robot' } }, /\/actor\/kind/],
    ['tool_calls missing', (() => { const c = validContext('post_model_call'); delete (c.response as JsonObject).tool_calls; return c; })(), /tool_calls/],
    ['summary.reason enum', { ...validContext('agent_shutdown'), summary: { reason: 'ok' } }, /\/summary\/reason/],
    ['input.role enum', { ...validContext('input'), input: { content: 'x', role: 'bot' } }, /\/input\/role/],
    ['is_error type', (() => { const c = validContext('post_tool_call'); (c.tool_result as JsonObject).is_error = 0; return c; })(), /\/tool_result\/is_error/],
  ];
  for (const [label, ctx, re] of cases) {
    const r = validateContextSchema(ctx);
    t.notOk(r.ok, label);
    t.match(errs(r), re, label);
  }
});

t.test('Verdict schema mirrors §5', async (t) => {
  for (const v of [{ decision: 'allow' }, { decision: 'deny', approval: {} }, { decision: 'transform', transform: { path: '$target' } }, { decision: 'allow', vendor_x: 1 }]) {
    t.ok(ok(validateVerdictSchema(v)), JSON.stringify(v));
  }
  for (const [v, re] of [
    [{}, /decision/],
    [{ decision: 'warn' }, /decision/],
    [{ decision: 'allow', reason: 'host_error:x' }, /host_error/],
    [{ decision: 'allow', approval: {} }, /approval MUST be absent/],
    [{ decision: 'transform' }, /transform/],
    [{ decision: 'deny', transform: { path: '$target' } }, /transform MUST be absent/],
    [{ decision: 'transform', transform: { value: 1 } }, /path/],
    [{ decision: 'allow', warnings: ['x'] }, /warnings/],
    [{ decision: 'allow', evidence: 'x' }, /evidence/],
    [{ decision: 'allow', result_labels: [1] }, /result_labels/],
  ] as const) {
    const r = validateVerdictSchema(v);
    t.notOk(r.ok, JSON.stringify(v));
    t.match(errs(r), re, JSON.stringify(v));
  }
});

t.test('ApprovalRequest / ApprovalResolution (§9)', async (t) => {
  const req = { context_identity: null, interception_point: 'pre_tool_call', verdict: { decision: 'deny', approval: {} }, context: validContext('pre_tool_call') };
  t.ok(ok(validateApprovalRequestSchema(req)), errs(validateApprovalRequestSchema(req)));
  t.notOk(ok(validateApprovalRequestSchema({ ...req, verdict: { decision: 'deny' } })), 'the consulted verdict is a liftable deny');
  t.notOk(ok(validateApprovalRequestSchema({ ...req, extra: 1 })), 'closed');
  t.notOk(ok(validateApprovalRequestSchema({ ...req, context_identity: 1 })), 'identity string|null');

  const id = 'sha256:' + '0'.repeat(64);
  t.ok(ok(validateApprovalResolutionSchema({ outcome: 'approve', context_identity: id, verdict: { decision: 'allow' } })));
  t.ok(ok(validateApprovalResolutionSchema({ outcome: 'approve', context_identity: id, verdict: { decision: 'transform', transform: { path: '$target', value: 1 } } })));
  t.ok(ok(validateApprovalResolutionSchema({ outcome: 'reject', context_identity: null, verdict: { decision: 'deny' } })));
  t.ok(ok(validateApprovalResolutionSchema({ outcome: 'unresolved', context_identity: null })));
  t.notOk(ok(validateApprovalResolutionSchema({ outcome: 'unresolved', context_identity: null, verdict: { decision: 'deny' } })), 'unresolved carries no verdict');
  t.notOk(ok(validateApprovalResolutionSchema({ outcome: 'approve', context_identity: null })), 'approve carries a verdict');
  t.notOk(ok(validateApprovalResolutionSchema({ outcome: 'approve', context_identity: null, verdict: { decision: 'deny' } })), 'approve carries a permit');
  t.notOk(ok(validateApprovalResolutionSchema({ outcome: 'reject', context_identity: null, verdict: { decision: 'allow' } })), 'reject carries a deny');
  t.notOk(ok(validateApprovalResolutionSchema({ outcome: 'maybe', context_identity: null })), 'outcome enum');
  t.notOk(ok(validateApprovalResolutionSchema({ outcome: 'unresolved' })), 'context_identity required (null echoes null)');
});

t.test('InterceptionRecord (§10.3)', async (t) => {
  const base = {
    interception_point: 'pre_tool_call', mode: 'enforce', verdict: { decision: 'transform', transform: { path: '$target.amount' } },
    input_identity: 'sha256:' + 'a'.repeat(64), enforced_identity: 'sha256:' + 'b'.repeat(64), identity_provider: 'jcs-sha256',
    session_id: 's', sequence: 4, decided_by: 0, composition: { profile: 'sequential/first_deny', on_approval: 'stop' },
    fold_truncated: false, interceptors_registered: 1,
  };
  t.ok(ok(validateRecordSchema(base)), errs(validateRecordSchema(base)));
  const good: Array<[string, object]> = [
    ['run_all with verdicts', { ...base, composition: { profile: 'sequential/run_all' }, verdicts: [{ index: 0, decision: 'allow', name: 'a' }] }],
    ['strictest', { ...base, composition: { profile: 'parallel/strictest', on_transform_conflict: 'deny' }, verdicts: [] }],
    ['unanimous', { ...base, composition: { profile: 'parallel/unanimous', on_disagreement: 'approval' }, verdicts: [] }],
    ['null provider', { ...base, identity_provider: null, input_identity: null, enforced_identity: null }],
    ['custom provider', { ...base, identity_provider: 'hmac-sha256-k1', input_identity: 'opaque', enforced_identity: 'opaque' }],
    ['rejected emission', { ...base, input_identity: null, enforced_identity: null, decided_by: null, verdict: { decision: 'deny', reason: 'host_error:context_invalid' } }],
    ['timestamp, trace, resolved_by', { ...base, timestamp: '2026-11-29T10:00:00Z', trace: { trace_id: 'ab' }, resolved_by: 'approval', verdict: { decision: 'allow', warnings: [{ reason: 'w' }], evidence: { artefact: 'a' }, result_labels: ['x'] } }],
    ['liftable deny projection', { ...base, verdict: { decision: 'deny', approval: {} }, resolved_by: 'rejection' }],
  ];
  for (const [label, rec] of good) t.ok(ok(validateRecordSchema(rec)), `${label}: ${errs(validateRecordSchema(rec))}`);
  const bad: Array<[string, object, RegExp]> = [
    ['transform.value present', { ...base, verdict: { decision: 'transform', transform: { path: '$target', value: 'secret' } } }, /unknown member "value"/],
    ['approval members kept', { ...base, verdict: { decision: 'deny', approval: { note: 'x' } } }, /approval/],
    ['unknown verdict member', { ...base, verdict: { decision: 'allow', context: {} } }, /unknown member "context"/],
    ['unknown record member', { ...base, target: {} }, /unknown member "target"/],
    ['first_deny without on_approval', { ...base, composition: { profile: 'sequential/first_deny' } }, /on_approval/],
    ['first_deny with a foreign knob', { ...base, composition: { profile: 'sequential/first_deny', on_approval: 'stop', on_disagreement: 'deny' } }, /first_deny/],
    ['run_all with a knob', { ...base, composition: { profile: 'sequential/run_all', on_approval: 'stop' }, verdicts: [] }, /run_all consults no knob/],
    ['strictest without its knob', { ...base, composition: { profile: 'parallel/strictest' }, verdicts: [] }, /on_transform_conflict/],
    ['unanimous missing on_disagreement', { ...base, composition: { profile: 'parallel/unanimous' }, verdicts: [] }, /on_disagreement/],
    ['unanimous with on_transform_conflict (§7.2: unanimous consults on_disagreement only)', { ...base, composition: { profile: 'parallel/unanimous', on_disagreement: 'deny', on_transform_conflict: 'deny' }, verdicts: [] }, /unanimous consults on_disagreement only/],
    ['multi-verdict profile without verdicts', { ...base, composition: { profile: 'sequential/run_all' } }, /verdicts/],
    ['unknown profile', { ...base, composition: { profile: 'quorum' } }, /profile/],
    ['null provider with identities', { ...base, identity_provider: null }, /input_identity/],
    ['jcs identity shape', { ...base, input_identity: 'sha256:XYZ' }, /input_identity/],
    ['jcs-prefixed custom provider', { ...base, identity_provider: 'jcs-custom' }, /identity_provider/],
    ['bad mode', { ...base, mode: 'observe' }, /mode/],
    ['missing decided_by', (() => { const r: Record<string, unknown> = { ...base }; delete r.decided_by; return r; })(), /decided_by/],
    ['verdicts entry with payload', { ...base, composition: { profile: 'sequential/run_all' }, verdicts: [{ index: 0, decision: 'allow', message: 'x' }] }, /unknown member "message"/],
  ];
  for (const [label, rec, re] of bad) {
    const r = validateRecordSchema(rec);
    t.notOk(r.ok, label);
    t.match(errs(r), re, label);
  }
});

/** scripts/generate-validators.mjs: path (from the package root) → module text, for the schemas under a root. */
async function loadGenerator(): Promise<{ generateValidators: (root?: string) => Record<string, string> }> {
  const path = await import('node:path');
  const { pathToFileURL } = await import('node:url');
  const { PACKAGE_ROOT } = await import('../version.js');
  return (await import(pathToFileURL(path.join(PACKAGE_ROOT, 'scripts', 'generate-validators.mjs')).href)) as { generateValidators: (root?: string) => Record<string, string> };
}

t.test('the build-time validators (src/core/generated/) are current with schema/*.json', async (t) => {
  const { readFileSync } = await import('node:fs');
  const path = await import('node:path');
  const { PACKAGE_ROOT } = await import('../version.js');
  const generator = await loadGenerator();
  const files = generator.generateValidators(PACKAGE_ROOT);
  t.same(Object.keys(files).sort(), ['src/core/generated/schema-validators.cts', 'src/core/generated/vector-validator.cts']);
  for (const [rel, text] of Object.entries(files)) {
    const committed = readFileSync(path.join(PACKAGE_ROOT, rel), 'utf8');
    t.ok(committed === text, `${rel} is what the schemas generate now (npm run build regenerates it)`);
  }
  // And what runs is what was generated: the built module exports one validator per schema name.
  const { createRequire } = await import('node:module');
  const built = createRequire(import.meta.url)('./generated/schema-validators.cjs') as Record<string, unknown>;
  for (const n of SCHEMA_NAMES) t.type(built[n.replace(/-/g, '_')], 'function', `${n} is built`);
});

t.test('a schema edit makes the generated code differ (the currency check can fail)', async (t) => {
  const { cpSync, mkdtempSync, readFileSync, writeFileSync, rmSync } = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const { PACKAGE_ROOT } = await import('../version.js');
  const generator = await loadGenerator();
  const root = mkdtempSync(path.join(os.tmpdir(), 'ctk-schema-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  cpSync(path.join(PACKAGE_ROOT, 'schema'), path.join(root, 'schema'), { recursive: true });
  const file = path.join(root, 'schema', 'verdict.schema.json');
  const schema = JSON.parse(readFileSync(file, 'utf8')) as { properties: Record<string, unknown> };
  schema.properties.reason = { type: 'string', maxLength: 7 };
  writeFileSync(file, JSON.stringify(schema));
  const edited = generator.generateValidators(root);
  const current = generator.generateValidators(PACKAGE_ROOT);
  t.not(edited['src/core/generated/schema-validators.cts'], current['src/core/generated/schema-validators.cts']);
  t.equal(edited['src/core/generated/vector-validator.cts'], current['src/core/generated/vector-validator.cts']);
});

t.test('the generated vector-file validator accepts every vector of the suite and rejects an unknown member', async (t) => {
  const { readFileSync, readdirSync } = await import('node:fs');
  const path = await import('node:path');
  const { PACKAGE_ROOT } = await import('../version.js');
  const { vectorFileValidator } = await import('./vector-schema.js');
  const validate = vectorFileValidator();
  const files = (readdirSync(path.join(PACKAGE_ROOT, 'vectors'), { recursive: true }) as string[]).filter((f) => f.endsWith('.json'));
  t.ok(files.length > 0);
  for (const f of files) {
    const vector = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'vectors', f), 'utf8')) as Record<string, unknown>;
    if (!validate(vector)) t.fail(`${f}: ${JSON.stringify(validate.errors)}`);
  }
  const first = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'vectors', files[0]!), 'utf8')) as Record<string, unknown>;
  t.notOk(validate({ ...first, zz_unknown: 1 }));
  t.match(JSON.stringify(validate.errors), /additionalProperties/);
});

t.test('run from the TypeScript sources (through tsx, as the demo is), the generated validators load too', async (t) => {
  const { spawnSync } = await import('node:child_process');
  const path = await import('node:path');
  const { pathToFileURL } = await import('node:url');
  const { PACKAGE_ROOT } = await import('../version.js');
  const source = path.join(PACKAGE_ROOT, 'src', 'core', 'schemas.ts');
  const script = `const { tsImport } = await import('tsx/esm/api'); const m = await tsImport(${JSON.stringify(pathToFileURL(source).href)}, import.meta.url); console.log(JSON.stringify([m.validateVerdictSchema({ decision: 'allow' }), m.validateVerdictSchema({ decision: 'warn' }).ok]));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: PACKAGE_ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  t.equal(r.stdout.trim(), JSON.stringify([{ ok: true }, false]), r.stderr);
});

// The CTK's own error formatting (the mutation run's `[ctk]` disables in schemas.ts name this test).
t.test('schema errors read "<pointer> <message>", once each, with the readable forms of enum, not and unknown members', async (t) => {
  const role = { ...validContext('input'), input: { content: 'x', role: 'bot' } };
  t.same(validateContextSchema(role), { ok: false, errors: ['/input/role must be one of ["user","system","external"]'] });
  const missing = validContext('output');
  delete missing.output;
  t.same(validateContextSchema(missing), { ok: false, errors: ["(root) must have required property 'output'"] });
  t.same(validateVerdictSchema({ decision: 'deny', reason: 'host_error:x' }), { ok: false, errors: ['/reason violates: §5: MUST NOT start with host_error:.'] });
  t.same(validateApprovalResolutionSchema({ decision: 'allow' }), {
    ok: false,
    errors: ["(root) must have required property 'outcome'", "(root) must have required property 'context_identity'", '(root) has unknown member "decision"'],
  });
  const r = validateContextSchema({ ...validContext('input'), x_one: 1, x_two: 2 });
  t.ok(!r.ok && new Set(r.errors).size === r.errors.length, 'no line twice');
  t.equal(loadSchema('verdict'), loadSchema('verdict'), 'a schema file is read once');
  t.match(loadSchema('agent-context/input'), { $schema: /2020-12/ });
});
