// Loads a validator module generated at build time (scripts/generate-validators.mjs → ./generated/<name>.cts,
// built to .cjs beside it), synchronously and on first use. From the TypeScript sources under tsx, the built
// .cjs does not exist: the .cts is required instead, which tsx compiles. Not part of the core's public API.
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';

const requireHere = createRequire(import.meta.url);

// Stryker disable all: [ctk] loads the CTK's build-time validators (schemas.ts, vector-schema.ts); no host code calls it; schemas.test.ts 'run from the TypeScript sources (through tsx, as the demo is), the generated validators load too' covers the .cts fallback

export function loadGeneratedValidators(name: 'schema-validators' | 'vector-validator'): Record<string, ValidateFunction> {
  let mod: Validators;
  try {
    mod = requireHere(`./generated/${name}.cjs`) as Validators;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw error;
    mod = requireHere(`./generated/${name}.cts`) as Validators;
  }
  // Under tsx on Node 24 the .cts (which tsx also finds for ./x.cjs) comes back as an ES module namespace: {__esModule, default}.
  return mod.__esModule === true && mod.default !== undefined ? mod.default : mod;
}

// Stryker restore all

type Validators = Record<string, ValidateFunction> & { __esModule?: boolean; default?: Record<string, ValidateFunction> };
