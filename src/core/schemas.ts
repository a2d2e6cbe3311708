// The project's JSON Schemas (schema/*.json, draft 2020-12). Their validators are compiled at build time
// (scripts/generate-validators.mjs, ajv standalone code in ./generated/), never when the CTK runs;
// schemas.test.ts checks the generated code is current with the schema files.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { PACKAGE_ROOT } from '../version.js';
import { loadGeneratedValidators } from './generated-validators.js';

// Stryker disable all: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)

export type SchemaResult = { ok: true } | { ok: false; errors: string[] };

export const SCHEMA_NAMES = ['agent-context', 'verdict', 'approval-request', 'approval-resolution', 'interception-record'] as const;
export type SchemaName = (typeof SCHEMA_NAMES)[number];

const SCHEMA_DIR = path.join(PACKAGE_ROOT, 'schema');
const rawCache = new Map<string, object>();

/** Reads schema/<name>.schema.json (or schema/agent-context/<point>.schema.json via 'agent-context/<point>'). */
export function loadSchema(name: string): object {
  let s = rawCache.get(name);
  if (s === undefined) {
    const file = path.join(SCHEMA_DIR, `${name}.schema.json`);
    s = JSON.parse(readFileSync(file, 'utf8')) as object;
    rawCache.set(name, s);
  }
  return s;
}

let generated: ReadonlyMap<SchemaName, ValidateFunction> | undefined;

/**
 * The build-time validators by schema name ("approval-request" is exported as approval_request), loaded on the
 * first validation (a CommonJS module, so synchronously): a process that never validates never parses them.
 */
function validators(): ReadonlyMap<SchemaName, ValidateFunction> {
  if (generated === undefined) {
    const mod = loadGeneratedValidators('schema-validators');
    generated = new Map(SCHEMA_NAMES.map((n) => [n, mod[n.replace(/-/g, '_')]!]));
  }
  return generated;
}

/** Validates `value` against one of the project schemas; errors are "<json-pointer> <message>" lines. */
export function validateAgainst(name: SchemaName, value: unknown): SchemaResult {
  const fn = validators().get(name)!;
  if (fn(value)) return { ok: true };
  return { ok: false, errors: formatErrors(fn.errors ?? []) };
}

export const validateContextSchema = (ctx: unknown): SchemaResult => validateAgainst('agent-context', ctx);
export const validateRecordSchema = (rec: unknown): SchemaResult => validateAgainst('interception-record', rec);
export const validateVerdictSchema = (v: unknown): SchemaResult => validateAgainst('verdict', v);
export const validateApprovalRequestSchema = (r: unknown): SchemaResult => validateAgainst('approval-request', r);
export const validateApprovalResolutionSchema = (r: unknown): SchemaResult => validateAgainst('approval-resolution', r);

/** Readable, de-duplicated messages; drops ajv's "must match then/else schema" wrappers, whose causes are reported too. */
function formatErrors(errors: ErrorObject[]): string[] {
  const lines: string[] = [];
  for (const e of errors) {
    if (e.keyword === 'if') continue;
    const at = e.instancePath === '' ? '(root)' : e.instancePath;
    let msg = e.message ?? 'is invalid';
    const params = e.params as Record<string, unknown>;
    if (e.keyword === 'additionalProperties') msg = `has unknown member "${String(params.additionalProperty)}"`;
    else if (e.keyword === 'enum') msg = `must be one of ${JSON.stringify(params.allowedValues)}`;
    else if (e.keyword === 'const') msg = `must be ${JSON.stringify(params.allowedValue)}`;
    else if (e.keyword === 'not') {
      const why = (e.parentSchema as { description?: unknown } | undefined)?.description;
      msg = typeof why === 'string' ? `violates: ${why}` : `must not match the schema at ${e.schemaPath}`;
    }
    const line = `${at} ${msg}`;
    if (!lines.includes(line)) lines.push(line);
  }
  return lines.length > 0 ? lines : ['(root) is invalid'];
}
// Stryker restore all
