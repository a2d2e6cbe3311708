// Which requirements of the catalogue (vectors/requirements.yaml) each selftest mutant breaks: one row per mutant of
// mutants.ts, by id. The first requirement of a row is the one the mutant was written against (its requirement, as
// `selftest --list` prints it); any further ones are broader requirements the same broken host violates too (a
// tool that runs after a deny breaks "a deny blocks" as well as "a pre_* deny is not dispatched").
// `coverage --requirements` and `coverage --thin N` count a requirement's mutants from this table. Plain data (no host
// code), so the catalogue readers load it cheaply.
// Adding a mutant is adding its row here: src/ctk/mutants/selftest.test.ts fails on a mutant without one, on a row
// naming no mutant or an unknown requirement, and on a mutant that none of its requirement's vectors kills.

export const MUTANT_REQUIREMENTS: Readonly<Record<string, string | readonly [string, ...string[]]>> = {
  'guard-throws-action-runs': ['REQ-6.3-raise-failed', 'REQ-1.3-fail-closed-unreachable'],
  'path-emits-no-hook': ['REQ-3.1-tool-paired', 'REQ-3-emit-eight', 'REQ-1.1-invoke-at-points'],
  'records-bind-nothing-null': 'REQ-10.3-identities',
  'records-bind-nothing-constant': 'REQ-10.3-identities',
  'transform-ignored': ['REQ-6-transform-applied', 'REQ-1.1-act-on-verdict', 'REQ-5.2-resolve-replace'],
  'post-tool-deny-incorporated': 'REQ-6.1-post-not-incorporated',
  'post-model-deny-incorporated': 'REQ-6.1-post-not-incorporated',
  'tool-runs-after-deny': ['REQ-6-pre-not-dispatched', 'REQ-5.1-deny-blocks', 'REQ-1.3-no-silent-bypass'],
  'post-after-blocked-pre': 'REQ-6.2-no-post-after-block',
  'startup-deny-ignored': 'REQ-6.1a-startup-deny-no-input',
  'no-shutdown-after-startup-deny': 'REQ-6.1a-startup-deny-shutdown',
  'shutdown-reason-completed-after-block': 'REQ-6.1a-startup-deny-shutdown',
  'deny-proceeds-in-enforce': ['REQ-6-input-not-begun', 'REQ-6-output-withheld', 'REQ-6-pre-not-dispatched', 'REQ-5.1-deny-blocks', 'REQ-1.1-act-on-verdict'],
  'evaluate-only-applies-transform': 'REQ-8-eval-validate-not-apply',
  'evaluate-only-consults-seam': ['REQ-8-eval-no-seam', 'REQ-9-consult-when-profile-says'],
  'copy-isolation-missing': 'REQ-7-copy-isolation',
  'timeout-not-enforced': ['REQ-6.3-timeout', 'REQ-7-timeout-bound', 'REQ-1.3-fail-closed-unreachable'],
  'invalid-verdict-allowed': ['REQ-6.3-gate-failure', 'REQ-1.3-fail-closed-invalid-verdict', 'REQ-1.1-interceptor-returns-verdict'],
  'no-interceptor-not-enforced': ['REQ-7-no-interceptor', 'REQ-1.3-no-silent-bypass'],
  'context-invalid-dispatched': ['REQ-6.3-context-invalid-no-dispatch', 'REQ-1.3-fail-closed-context', 'REQ-12.3-bounds-fail-closed'],
  'gate-accepts-host-error-reason': ['REQ-5-reason-prefix', 'REQ-11-interceptor-no-prefix'],
  'gate-ignores-evidence-cap': 'REQ-5.3-evidence-cap-whole-verdict',
  'gate-accepts-approval-on-permit': 'REQ-5-approval-only-deny',
  'gate-non-object-is-allow': ['REQ-5-verdict-object', 'REQ-1.1-interceptor-returns-verdict'],
  'gate-accepts-bad-warnings': 'REQ-5-warnings-shape',
  'wrong-severity-order': 'REQ-7.3-severity-order',
  'block-tie-highest-index': 'REQ-7.3-block-tie-lowest',
  'warnings-not-deduplicated': 'REQ-7.3-warnings-union',
  'labels-kept-on-deny': 'REQ-5.4-labels-not-on-deny',
  'labels-not-persisted': 'REQ-5.4-labels-persist',
  'evaluate-only-drops-labels': 'REQ-5.4-labels-persist',
  'policy-target-rejected': 'REQ-5.2-policy-target-alias',
  'bad-path-is-noop': ['REQ-5.2-invalid-path', 'REQ-7.4-fold-failure'],
  'run-all-short-circuits': ['REQ-7.4-run-all-every', 'REQ-7.2-closed-profiles'],
  'first-deny-runs-all': ['REQ-7.4-first-deny-short', 'REQ-7.2-closed-profiles'],
  'resume-treated-as-stop': 'REQ-7.4-resume-each',
  'fold-truncated-wrong': 'REQ-10.3-fold-truncated',
  'wrong-decided-by': 'REQ-10.3-decided-by',
  'parallel-without-snapshot': 'REQ-7.5-snapshot',
  'transform-conflict-ignored': 'REQ-7.5-transform-conflict',
  'unanimous-as-strictest': ['REQ-7.5-unanimous', 'REQ-7.2-closed-profiles'],
  'echo-rule-unchecked': 'REQ-9-echo',
  'resolver-consulted-at-shutdown': ['REQ-6.1a-shutdown-no-seam', 'REQ-9-consult-when-profile-says'],
  'unresolved-lifts': ['REQ-9-unresolved', 'REQ-6-unlifted-is-deny', 'REQ-5.1-liftable-blocks'],
  'resolver-failure-lifts': 'REQ-9-resolver-failed',
  'validation-order-swapped': 'REQ-9-validation-order',
  'approve-with-deny-accepted': 'REQ-9-approve-permit',
  'transform-value-leaks': ['REQ-10.3-projection-transform', 'REQ-10.3-no-unprojected'],
  'message-not-truncated': 'REQ-10.3-projection-message',
  'truncation-splits-characters': 'REQ-10.3-projection-message',
  'approval-members-kept': ['REQ-10.3-projection-approval', 'REQ-10.3-no-unprojected'],
  'evidence-dropped': 'REQ-5.3-evidence-propagated',
  'resolved-by-missing': 'REQ-10.3-resolved-by',
  'unconsulted-knobs-recorded': 'REQ-10.3-composition-knobs',
  'interceptors-registered-counts-invoked': 'REQ-10.3-interceptors-registered',
  'timestamp-dropped': 'REQ-10.3-timestamp-trace',
  'enforced-identity-stale': 'REQ-10.3-identities',
  'sequence-starts-at-one': ['REQ-4.1-sequence-zero', 'REQ-3.1-startup-first'],
  'empty-tool-calls-omitted': 'REQ-4.2-empty-tool-calls',
  'write-back-missing': 'REQ-4.3-target-observable',
  'reverse-registration-order': 'REQ-7.4-fold-apply',
  'failure-decided-by-null': ['REQ-10.3-decided-by', 'REQ-6.3-failure-slot'],
  'evaluate-only-enforces': ['REQ-8-eval-proceeds', 'REQ-8-two-modes'],
  'approval-identity-over-unredacted': 'REQ-9-request-identity',
  'resume-consults-first-only': 'REQ-7.4-resume-each',
  'consult-before-fold': 'REQ-9-request-identity',
  'run-all-approval-ignores-fold': 'REQ-7.4-run-all-approval',
  'strictest-applies-losing-transform': 'REQ-7.5-losing-transform',
  'resume-always-truncated': 'REQ-10.3-fold-truncated',
  'run-all-deny-identity-unfolded': 'REQ-7.4-run-all-discard',
  'synthesized-decided-by-index': 'REQ-10.3-decided-by',
  'transform-failure-decided-by-index': 'REQ-10.3-decided-by',
  'labels-from-denies': 'REQ-7.3-labels-union',
  'resolutions-unioned-last': 'REQ-7.3-warnings-union',
  'evaluate-only-skips-transform-validation': 'REQ-8-eval-validate-not-apply',
  'warning-messages-not-truncated': 'REQ-10.3-projection-message',
  'context-invalid-decided-by-zero': 'REQ-10.3-decided-by',
  'fold-truncated-omitted-when-false': 'REQ-10.3-fold-truncated',
  'post-tool-args-untransformed': 'REQ-4.2-post-args-reflect',
  'run-all-allow-lift-drops-fold': 'REQ-7.4-run-all-approval',
  'parallel-approval-transform-ignored': 'REQ-7.6-substitution',
  'truncation-ellipsis-extra': 'REQ-10.3-projection-message',
  'run-all-fold-truncated-always-true': 'REQ-10.3-fold-truncated',
  'reject-keeps-triggering-deny': 'REQ-9-reject-deny',
  'evaluate-only-zero-interceptors-allow': 'REQ-7-no-interceptor-evaluate-only',
  'sequence-reused-under-concurrency': 'REQ-12.2-parallel-sequence',
  'knob-default-resume': 'REQ-7.2-knob-defaults',
  'tool-seam-terminates-undeclared': ['REQ-6.2-tool-seam-host-error-posture', 'REQ-6.2-loop-continues', 'REQ-13.1-postures'],
  'stop-approval-always-truncated-undeclared': ['REQ-7.4-stop-truncation', 'REQ-13.1-postures'],
  'knob-default-disagreement-approval': 'REQ-7.2-knob-defaults',
  'projection-failure-fails-open': 'REQ-10.3-projection-fail-closed',
  'projection-failure-wrong-reason': ['REQ-11-projection-failure-reason', 'REQ-11-reserved-reasons'],
  'stream-first-chunk-only': 'REQ-12.1-stream-assembled',
  'stream-truncated-settles-clean': 'REQ-12.1-stream-incomplete',
  'release-unverdicted-output': 'REQ-12.1a-verdicted-content',
  'incremental-release-ahead-of-verdict': 'REQ-12.1-incremental-release-covered',
  'incremental-deny-does-not-terminate': 'REQ-12.1-incremental-deny-terminates',
  'incremental-reads-ahead': 'REQ-12.1-incremental-deny-terminates',
  'incremental-residue-settles-clean': 'REQ-12.1-incremental-residue-fails-closed',
  'incremental-persists-withheld': 'REQ-12.1-incremental-persistence-gated',
  'incremental-releases-raw-chunk': 'REQ-12.1a-verdicted-content',
  // issue 25: the mutants written for the MUSTs no mutant broke
  'tool-starts-before-composition': ['REQ-12.2-parallel-tool-after-pre', 'REQ-7-composition-before-action'],
  'post-tool-deny-reexecutes': 'REQ-6.1-no-reexecute',
  'post-model-deny-reexecutes': 'REQ-6.1-no-reexecute',
  'shutdown-never-emitted': ['REQ-3.1-shutdown-last', 'REQ-3-emit-eight', 'REQ-3.2-core-points-always'],
  'sequence-not-advanced': ['REQ-3.1-sequence-increasing', 'REQ-4.1-sequence-zero'],
  'gate-decision-absent-is-allow': 'REQ-5-decision-valid',
  'gate-transform-on-non-transform-dropped': 'REQ-5-transform-iff',
  'gate-accepts-bad-evidence': 'REQ-5-evidence-shape',
  'gate-accepts-bad-labels': 'REQ-5-labels-shape',
  'evidence-cap-exclusive': 'REQ-5-evidence-cap',
  'warnings-not-recorded': ['REQ-5.1-record-warnings', 'REQ-10.3-projection-kept'],
  'absent-value-leaves-target': 'REQ-5.2-absent-value-null',
  'session-boundary-transform-ignored': 'REQ-4.3-forbidden-points',
  'shutdown-deny-retracts-output': 'REQ-6.1a-shutdown-no-reexecute',
  'profile-misrecorded': ['REQ-7.1-profile-recorded', 'REQ-10.3-composition-knobs'],
  'strictest-majority-allows': 'REQ-7.2-no-quorum-no-permissive',
  'strictest-lone-transform-dropped': 'REQ-7.5-strictest-single-transform',
  'unanimous-transforms-conflict': 'REQ-7.5-unanimous-knob',
  'evaluate-only-recorded-as-enforce': ['REQ-8-eval-not-enforcement', 'REQ-14-eval-not-presented'],
  'null-provider-misstated': 'REQ-10.1-null-provider-stated',
  'shutdown-record-missing': 'REQ-10.3-one-record',
  'labels-dropped-from-record': 'REQ-10.3-projection-kept',
  'verdicts-summary-missing': 'REQ-10.3-verdicts-summary',
  'record-carries-target': 'REQ-10.3-payload-free',
  'timeout-reason-misnamed': ['REQ-11-reserved-reasons', 'REQ-6.3-timeout'],
  'release-rewrites-output': 'REQ-12.1a-no-rewrite-before-release',
  'post-tool-call-id-rewritten': ['REQ-3.1-tool-paired', 'REQ-12.2-parallel-bracket'],
  'all-permit-first-transform-recorded': 'REQ-7.4-all-permit-combination',
  'no-resolver-records-rejection': ['REQ-9-no-resolver', 'REQ-10.3-resolved-by'],
  'provider-failure-falls-back-to-none': 'REQ-10.1-provider-failure',
  'pre-tool-target-whole-call': ['REQ-4.2-target-alias', 'REQ-4.2-conditional-fields', 'REQ-1.1-construct-context'],
  'extensions-dropped': 'REQ-4.6-extensions-verbatim',
  'transform-root-rewritten': ['REQ-5.2-forbidden-root', 'REQ-5.2-rooted-target'],
  'transform-drops-siblings': 'REQ-5.2-no-other-change',
  // issue 18: the bug classes a framework adapter showed (tool values, null answers, structured content, §6.3 messages, parallel calls)
  'tool-value-unwrapped': 'REQ-4.2-conditional-fields',
  'tool-value-json-text': 'REQ-4.2-conditional-fields',
  'tool-falsy-value-nulled': 'REQ-4.2-conditional-fields',
  'tool-null-value-is-error': 'REQ-4.2-conditional-fields',
  'tool-value-shallow': 'REQ-4.2-conditional-fields',
  'tool-error-value-stringified': 'REQ-4.2-conditional-fields',
  'null-answer-errors': 'REQ-3-output-every-answer',
  'null-answer-skips-output': 'REQ-3-output-every-answer',
  'empty-answer-nulled': 'REQ-3-output-every-answer',
  'structured-input-stringified': 'REQ-4.2-conditional-fields',
  'structured-answer-stringified': 'REQ-4.2-conditional-fields',
  'tool-error-unprojectable-stringified': ['REQ-10.3-projection-fail-closed', 'REQ-11-projection-failure-reason'],
  'host-deny-quotes-target': 'REQ-6.3-no-target-in-message',
  'interceptor-exception-text-recorded': 'REQ-6.3-no-target-in-message',
  'domain-location-names-members': 'REQ-6.3-no-target-in-message',
  'projection-failure-records-exception-text': 'REQ-6.3-no-target-in-message',
  'parallel-declared-serial': ['REQ-13.1-capabilities-observed', 'REQ-12.2-parallel-bracket'],
  // fuzz findings against the framework integrations
  'input-role-transform-dropped': 'REQ-4.3-target-observable',
  'input-role-transform-not-sent': 'REQ-4.3-target-observable',
  'labels-not-at-output': 'REQ-5.4-labels-persist',
  'failed-tool-transform-ignored': ['REQ-6-transform-applied', 'REQ-4.3-target-observable'],
};

/** The requirements a mutant's row names, its own first ([] for a mutant without a row). */
export function requirementsOfMutant(mutantId: string): readonly string[] {
  if (!Object.prototype.hasOwnProperty.call(MUTANT_REQUIREMENTS, mutantId)) return [];
  const row = MUTANT_REQUIREMENTS[mutantId]!;
  return typeof row === 'string' ? [row] : row;
}

/** The requirement a mutant was written against, or undefined for a mutant without a row. */
export function requirementOfMutant(mutantId: string): string | undefined {
  return requirementsOfMutant(mutantId)[0];
}

let byRequirement: Map<string, string[]> | undefined;

/** The ids of the mutants that break requirement `id`, as their own requirement or a broader one (table order). */
export function mutantsBreaking(id: string): readonly string[] {
  if (!byRequirement) {
    byRequirement = new Map();
    for (const mutant of Object.keys(MUTANT_REQUIREMENTS))
      for (const req of requirementsOfMutant(mutant)) byRequirement.set(req, [...(byRequirement.get(req) ?? []), mutant]);
  }
  return byRequirement.get(id) ?? [];
}
