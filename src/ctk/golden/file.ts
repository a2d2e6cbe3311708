// A golden identity file in the published format (§10.2 "the golden vectors … pin the exact bytes"):
// {fixtures: [{id, ctx, expect: {canonical_json, context_identity} | {error}}]}, numbers parsed by the token
// rule's hand-over (core json-text), so 9007199254740992 and 1e21 reach the provider as written.
// Extra members are allowed (ours: description, note, same_identity_as, remediation_contains).
import { readFileSync } from 'node:fs';
import { isPlainObject } from '../../core/json.js';
import { parseJsonText } from '../../core/json-text.js';
import { decodeUtf8 } from '../../core/utf8.js';

export interface GoldenFixture {
  id: string;
  /** The context handed to the provider (any JSON value: a negative fixture may carry a non-object). */
  ctx: unknown;
  expect: GoldenExpectation;
  /** Ours: the id of a fixture whose identity must be equal. */
  same_identity_as?: string;
  /** Ours: a substring our provider's remediation must contain (negative fixtures). */
  remediation_contains?: string;
  note?: string;
}

export type GoldenExpectation =
  | { kind: 'identity'; canonical_json?: string; context_identity?: string }
  /** `error` as the file states it: a §11 reason, a message, or any other marker. */
  | { kind: 'error'; error: unknown };

export interface GoldenFile {
  file: string;
  fixtures: GoldenFixture[];
}

/** A golden file that cannot be used; the message names the file and the fixture/field (exit 2). */
export class GoldenFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GoldenFileError';
  }
}

export function readGoldenFile(file: string): GoldenFile {
  let text: string;
  try {
    text = decodeUtf8(readFileSync(file)).replace(/^\uFEFF/, '');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code !== undefined ? ` cannot be read (${code})` : `: ${(error as Error).message}`;
    throw new GoldenFileError(`golden file ${file}${why}; pass a golden identity file ({"fixtures": [{id, ctx, expect}]}).`);
  }
  return parseGoldenFile(text, file);
}

/** Parses and checks the shape of a golden file's text; throws GoldenFileError naming the file and fixture. */
export function parseGoldenFile(text: string, file: string): GoldenFile {
  let root: unknown;
  try {
    root = parseJsonText(text);
  } catch (error) {
    const why = error instanceof RangeError ? 'nests too deeply to parse' : `is not valid JSON (${(error as Error).message})`;
    throw new GoldenFileError(`golden file ${file} ${why}.`);
  }
  if (!isPlainObject(root) || !Array.isArray(root.fixtures)) {
    throw new GoldenFileError(`golden file ${file} must be a JSON object with a "fixtures" array ({"fixtures": [{id, ctx, expect}]}).`);
  }
  if (root.fixtures.length === 0) throw new GoldenFileError(`golden file ${file} has no fixtures; there is nothing to check.`);
  const seen = new Set<string>();
  const fixtures = root.fixtures.map((raw, i) => {
    const fixture = checkFixture(raw, `golden file ${file}: fixtures[${i}]`);
    if (seen.has(fixture.id)) throw new GoldenFileError(`golden file ${file}: fixtures[${i}] repeats the id ${JSON.stringify(fixture.id)}; ids must be unique.`);
    seen.add(fixture.id);
    return fixture;
  });
  for (const f of fixtures) {
    if (f.same_identity_as !== undefined && !seen.has(f.same_identity_as)) {
      throw new GoldenFileError(`golden file ${file}: fixture ${f.id}: same_identity_as names ${JSON.stringify(f.same_identity_as)}, which is not a fixture id.`);
    }
  }
  return { file, fixtures };
}

function checkFixture(raw: unknown, where: string): GoldenFixture {
  if (!isPlainObject(raw)) throw new GoldenFileError(`${where} must be an object {id, ctx, expect}.`);
  if (typeof raw.id !== 'string' || raw.id === '') throw new GoldenFileError(`${where}: id must be a non-empty string.`);
  const at = `${where} (${raw.id})`;
  if (!Object.prototype.hasOwnProperty.call(raw, 'ctx')) throw new GoldenFileError(`${at}: ctx is missing (the context the provider is given).`);
  const e = raw.expect;
  if (!isPlainObject(e)) throw new GoldenFileError(`${at}: expect must be an object, {canonical_json, context_identity} or {error}.`);
  const hasError = Object.prototype.hasOwnProperty.call(e, 'error') && e.error !== null;
  const hasIdentity = e.canonical_json !== undefined || e.context_identity !== undefined;
  if (hasError === hasIdentity) {
    throw new GoldenFileError(`${at}: expect must carry either canonical_json/context_identity or error, ${hasError ? 'not both' : 'and carries neither'}.`);
  }
  for (const member of ['canonical_json', 'context_identity'] as const) {
    if (e[member] !== undefined && typeof e[member] !== 'string') throw new GoldenFileError(`${at}: expect.${member} must be a string.`);
  }
  for (const member of ['same_identity_as', 'remediation_contains', 'note'] as const) {
    if (raw[member] !== undefined && typeof raw[member] !== 'string') throw new GoldenFileError(`${at}: ${member} must be a string.`);
  }
  const expect: GoldenExpectation = hasError
    ? { kind: 'error', error: e.error }
    : { kind: 'identity', canonical_json: e.canonical_json as string | undefined, context_identity: e.context_identity as string | undefined };
  return {
    id: raw.id,
    ctx: raw.ctx,
    expect,
    same_identity_as: raw.same_identity_as as string | undefined,
    remediation_contains: raw.remediation_contains as string | undefined,
    note: raw.note as string | undefined,
  };
}
