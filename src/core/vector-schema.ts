// The vector-file schema (schema/vectors.schema.json) as a validator generated at build time, with the options
// the vector loader has always compiled it with (allErrors, non-strict). Not part of the core's public API:
// it is the CTK loader's, kept here beside the other generated validators.
import type { ValidateFunction } from 'ajv';
import { loadGeneratedValidators } from './generated-validators.js';

let validator: ValidateFunction | undefined;

/** The build-time validator of one vector file (plain JSON), loaded on first use. */
// Stryker disable next-line BlockStatement: [ctk] only the CTK's vector loader calls it (src/ctk/load.ts), never a host; vector-schema.test.ts kills it
export function vectorFileValidator(): ValidateFunction {
  // Stryker disable next-line AssignmentOperator,StringLiteral: [ctk] only the CTK's vector loader calls it (src/ctk/load.ts), never a host; vector-schema.test.ts kills it
  validator ??= loadGeneratedValidators('vector-validator').vectors!;
  return validator;
}
