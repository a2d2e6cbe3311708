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
