// The project's JSON Schemas (schema/*.json, draft 2020-12). Their validators are compiled at build time
// (scripts/generate-validators.mjs, ajv standalone code in ./generated/), never when the CTK runs;
// schemas.test.ts checks the generated code is current with the schema files.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { PACKAGE_ROOT } from '../version.js';
import { loadGeneratedValidators } from './generated-validators.js';


export type SchemaResult = { ok: true } | { ok: false; errors: string[] };

export const SCHEMA_NAMES = ['agent-context', 'verdict', 'approval-request', 'approval-resolution', 'interception-record'] as const;
export type SchemaName = (typeof SCHEMA_NAMES)[number];

// Stryker disable next-line StringLiteral: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
const SCHEMA_DIR = path.join(PACKAGE_ROOT, 'schema');
const rawCache = new Map<string, object>();

/** Reads schema/<name>.schema.json (or schema/agent-context/<point>.schema.json via 'agent-context/<point>'). */
// Stryker disable next-line BlockStatement: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
export function loadSchema(name: string): object {
  let s = rawCache.get(name);
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
  if (s === undefined) {
    // Stryker disable next-line StringLiteral: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
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
// Stryker disable next-line BlockStatement: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
function validators(): ReadonlyMap<SchemaName, ValidateFunction> {
  // Stryker disable next-line ConditionalExpression,BlockStatement,EqualityOperator: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
  if (generated === undefined) {
    // Stryker disable next-line StringLiteral: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
    const mod = loadGeneratedValidators('schema-validators');
    // Stryker disable next-line ArrowFunction,ArrayDeclaration,StringLiteral: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
    generated = new Map(SCHEMA_NAMES.map((n) => [n, mod[n.replace(/-/g, '_')]!]));
  }
  return generated;
}

/** Validates `value` against one of the project schemas; errors are "<json-pointer> <message>" lines. */
// Stryker disable next-line BlockStatement: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
export function validateAgainst(name: SchemaName, value: unknown): SchemaResult {
  const fn = validators().get(name)!;
  // Stryker disable next-line ConditionalExpression,ObjectLiteral,BooleanLiteral: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
  if (fn(value)) return { ok: true };
  // Stryker disable next-line ObjectLiteral,BooleanLiteral,LogicalOperator,ArrayDeclaration: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
  return { ok: false, errors: formatErrors(fn.errors ?? []) };
}

// Stryker disable next-line StringLiteral: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
export const validateContextSchema = (ctx: unknown): SchemaResult => validateAgainst('agent-context', ctx);
// Stryker disable next-line StringLiteral: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
export const validateRecordSchema = (rec: unknown): SchemaResult => validateAgainst('interception-record', rec);
// Stryker disable next-line StringLiteral,ArrowFunction: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
export const validateVerdictSchema = (v: unknown): SchemaResult => validateAgainst('verdict', v);
// Stryker disable next-line StringLiteral,ArrowFunction: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
export const validateApprovalRequestSchema = (r: unknown): SchemaResult => validateAgainst('approval-request', r);
// Stryker disable next-line StringLiteral,ArrowFunction: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
export const validateApprovalResolutionSchema = (r: unknown): SchemaResult => validateAgainst('approval-resolution', r);

/** Readable, de-duplicated messages; drops ajv's "must match then/else schema" wrappers, whose causes are reported too. */
// Stryker disable next-line BlockStatement: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
function formatErrors(errors: ErrorObject[]): string[] {
  // Stryker disable next-line ArrayDeclaration: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
  const lines: string[] = [];
  // Stryker disable next-line BlockStatement: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
  for (const e of errors) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
    if (e.keyword === 'if') continue;
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
    const at = e.instancePath === '' ? '(root)' : e.instancePath;
    // Stryker disable next-line LogicalOperator,StringLiteral: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
    let msg = e.message ?? 'is invalid';
    const params = e.params as Record<string, unknown>;
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
    if (e.keyword === 'additionalProperties') msg = `has unknown member "${String(params.additionalProperty)}"`;
    else if (e.keyword === 'enum') msg = `must be one of ${JSON.stringify(params.allowedValues)}`;
    else if (e.keyword === 'const') msg = `must be ${JSON.stringify(params.allowedValue)}`;
    else if (e.keyword === 'not') {
      // Stryker disable next-line OptionalChaining: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
      const why = (e.parentSchema as { description?: unknown } | undefined)?.description;
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
      msg = typeof why === 'string' ? `violates: ${why}` : `must not match the schema at ${e.schemaPath}`;
    }
    // Stryker disable next-line StringLiteral: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
    const line = `${at} ${msg}`;
    // Stryker disable next-line BooleanLiteral,ConditionalExpression: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
    if (!lines.includes(line)) lines.push(line);
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ArrayDeclaration,StringLiteral: [ctk] the CTK's own schema checks (ctk/invariants.ts) and the messages it prints; no host code calls this file (src/host imports none of it); schemas.test.ts kills these ('schema errors read "<pointer> <message>", once each, …', 'AgentContext: closed per point' and the per-schema tests)
  return lines.length > 0 ? lines : ['(root) is invalid'];
}
