// Loads a validator module generated at build time (scripts/generate-validators.mjs → ./generated/<name>.cts,
// built to .cjs beside it), synchronously and on first use. From the TypeScript sources under tsx, the built
// .cjs does not exist: the .cts is required instead, which tsx compiles. Not part of the core's public API.
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';

const requireHere = createRequire(import.meta.url);

export function loadGeneratedValidators(name: 'schema-validators' | 'vector-validator'): Record<string, ValidateFunction> {
  try {
    return requireHere(`./generated/${name}.cjs`) as Record<string, ValidateFunction>;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw error;
    return requireHere(`./generated/${name}.cts`) as Record<string, ValidateFunction>;
  }
}
