// Errors the spec core throws. Every one carries the §11 reason it maps to and a remediation.
import { HOST_ERROR } from './reasons.js';

/** §6.3 / §10.2: the host could not construct a valid AgentContext, or the identity provider rejected it. */
export class ContextInvalidError extends Error {
  readonly reason = HOST_ERROR.context_invalid;
  /** One actionable sentence: what is wrong and how to fix it. */
  readonly remediation: string;
  constructor(remediation: string, options?: { cause?: unknown }) {
    // Stryker disable next-line StringLiteral: wording: the message and name of an error no host shows as they are (the emitter's failure detail is its own payload-free text, §6.3; the CLI prints reason and remediation); errors.test.ts kills it
    super(`${HOST_ERROR.context_invalid}: ${remediation}`, options);
    // Stryker disable next-line StringLiteral: wording: the message and name of an error no host shows as they are (the emitter's failure detail is its own payload-free text, §6.3; the CLI prints reason and remediation); errors.test.ts kills it
    this.name = 'ContextInvalidError';
    this.remediation = remediation;
  }
}

/** §10.2 input domain: a value RFC 8785 cannot canonicalize faithfully (rejected, never normalized). */
export class IdentityDomainError extends ContextInvalidError {
  // Stryker disable next-line BlockStatement: equivalent for a host: emptied, the constructor throws a ReferenceError instead (no super call), which the emitter's identity guard fails closed as the same context_invalid record, its detail naming the domain violation it finds itself; errors.test.ts kills it
  constructor(remediation: string, options?: { cause?: unknown }) {
    super(remediation, options);
    // Stryker disable next-line StringLiteral: wording: the message and name of an error no host shows as they are (the emitter's failure detail is its own payload-free text, §6.3; the CLI prints reason and remediation); errors.test.ts kills it
    this.name = 'IdentityDomainError';
  }
}

/** A malformed dotted path in the vector `match`/`assert` language (an authoring error, not a host failure). */
export class PathSyntaxError extends Error {
  readonly path: string;
  // Stryker disable next-line BlockStatement: [ctk] only the CTK's vector path language throws it (paths.ts parseDottedPath, reported by the loader); paths.test.ts 'dotted paths for match/assert' and 'the PathSyntaxError names the path' kill it
  constructor(path: string, detail: string) {
    // Stryker disable next-line StringLiteral: [ctk] the loader's message for a malformed vector path; paths.test.ts 'the PathSyntaxError names the path' kills it
    super(`malformed path ${JSON.stringify(path)}: ${detail}`);
    // Stryker disable next-line StringLiteral: [ctk] as above; paths.test.ts 'the PathSyntaxError names the path' kills it
    this.name = 'PathSyntaxError';
    this.path = path;
  }
}
