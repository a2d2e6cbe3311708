// §5.4 result_labels: per-namespace ordered unions, persisted with data and resurfaced as
// extensions.<namespace>.source_labels on later hooks whose target derives from that data.
import type { JsonObject } from '../core/types.js';
import type { LabelSet } from './types.js';

/** §4.6 namespace rule, and the namespaces the spec reserves for itself. */
// Stryker equivalent next-line Regex `/[a-z][a-z0-9_]*$/` @26-45: read only by validateNamespace, the integrator's configuration check below (disabled for the same reason: the CTK registers interceptors by name and never gives a namespace, so no vector reaches it); labels.test.ts 'validateNamespace: ^[a-z][a-z0-9_]*$ and not reserved, else a NamespaceError saying why (§4.6)' probes both anchors, the first-character class and the repetition
// Stryker equivalent next-line Regex `/^[a-z][a-z0-9_]*/` @26-45: read only by validateNamespace, the integrator's configuration check below (disabled for the same reason: the CTK registers interceptors by name and never gives a namespace, so no vector reaches it); labels.test.ts 'validateNamespace: ^[a-z][a-z0-9_]*$ and not reserved, else a NamespaceError saying why (§4.6)' probes both anchors, the first-character class and the repetition
export const NAMESPACE = /^[a-z][a-z0-9_]*$/;
// Stryker disable next-line StringLiteral,ArrayDeclaration: read only by the integrator's namespace check and the derivation below, neither of which a vector can see (labels.test.ts 'validateNamespace: ^[a-z][a-z0-9_]*$ and not reserved, else a NamespaceError saying why (§4.6)')
export const RESERVED_NAMESPACES: ReadonlySet<string> = new Set(['acs', 'ctk', 'agent_hooks']);
/** Where labels carried by an approval resolution of a host-synthesized deny are filed. */
export const HOST_LABEL_NAMESPACE = 'reference_host';

export class NamespaceError extends Error {
  // Stryker disable next-line BlockStatement: an integrator's configuration check at construction: the CTK registers its interceptors by name (ctk-0, ctk-1, …) and never gives a namespace, so no vector reaches it (labels.test.ts 'validateNamespace: ^[a-z][a-z0-9_]*$ and not reserved, else a NamespaceError saying why (§4.6)')
  constructor(ns: unknown, why: string) {
    // Stryker disable next-line StringLiteral: an integrator's configuration check at construction: the CTK registers its interceptors by name (ctk-0, ctk-1, …) and never gives a namespace, so no vector reaches it (labels.test.ts 'validateNamespace: ^[a-z][a-z0-9_]*$ and not reserved, else a NamespaceError saying why (§4.6)')
    super(`interceptor namespace ${JSON.stringify(ns)} is rejected: ${why} (§4.6)`);
    // Stryker disable next-line StringLiteral: an integrator's configuration check at construction: the CTK registers its interceptors by name (ctk-0, ctk-1, …) and never gives a namespace, so no vector reaches it (labels.test.ts 'validateNamespace: ^[a-z][a-z0-9_]*$ and not reserved, else a NamespaceError saying why (§4.6)')
    this.name = 'NamespaceError';
  }
}

// Stryker disable next-line BlockStatement: an integrator's configuration check at construction: the CTK registers its interceptors by name (ctk-0, ctk-1, …) and never gives a namespace, so no vector reaches it (labels.test.ts 'validateNamespace: ^[a-z][a-z0-9_]*$ and not reserved, else a NamespaceError saying why (§4.6)')
export function validateNamespace(ns: unknown): string {
  // Stryker disable next-line LogicalOperator: an integrator's configuration check at construction: the CTK registers its interceptors by name (ctk-0, ctk-1, …) and never gives a namespace, so no vector reaches it (labels.test.ts 'validateNamespace: ^[a-z][a-z0-9_]*$ and not reserved, else a NamespaceError saying why (§4.6)')
  // Stryker equivalent next-line StringLiteral `""` @83-116: an integrator's configuration check at construction: the CTK registers its interceptors by name (ctk-0, ctk-1, …) and never gives a namespace, so no vector reaches it (labels.test.ts 'validateNamespace: ^[a-z][a-z0-9_]*$ and not reserved, else a NamespaceError saying why (§4.6)')
  // Stryker equivalent next-line ConditionalExpression `false` @7-52: an integrator's configuration check at construction: the CTK registers its interceptors by name (ctk-0, ctk-1, …) and never gives a namespace, so no vector reaches it (labels.test.ts 'validateNamespace: ^[a-z][a-z0-9_]*$ and not reserved, else a NamespaceError saying why (§4.6)')
  // Stryker equivalent next-line ConditionalExpression `false` @7-29: an integrator's configuration check at construction: the CTK registers its interceptors by name (ctk-0, ctk-1, …) and never gives a namespace, so no vector reaches it (labels.test.ts 'validateNamespace: ^[a-z][a-z0-9_]*$ and not reserved, else a NamespaceError saying why (§4.6)')
  if (typeof ns !== 'string' || !NAMESPACE.test(ns)) throw new NamespaceError(ns, 'it must match ^[a-z][a-z0-9_]*$');
  // Stryker disable next-line StringLiteral: an integrator's configuration check at construction: the CTK registers its interceptors by name (ctk-0, ctk-1, …) and never gives a namespace, so no vector reaches it (labels.test.ts 'validateNamespace: ^[a-z][a-z0-9_]*$ and not reserved, else a NamespaceError saying why (§4.6)')
  // Stryker equivalent next-line ConditionalExpression `false` @7-34: an integrator's configuration check at construction: the CTK registers its interceptors by name (ctk-0, ctk-1, …) and never gives a namespace, so no vector reaches it (labels.test.ts 'validateNamespace: ^[a-z][a-z0-9_]*$ and not reserved, else a NamespaceError saying why (§4.6)')
  if (RESERVED_NAMESPACES.has(ns)) throw new NamespaceError(ns, 'acs, ctk and agent_hooks are reserved by the spec');
  return ns;
}

/**
 * Default namespace for an interceptor: its name lowercased, every character outside [a-z0-9_] replaced by "_",
 * prefixed with "i_" when it does not start with a letter or is reserved; `interceptor_<index>` without a name.
 * E.g. "RefundGuard" → "refundguard", "ctk-0" → "ctk_0", "ctk" → "i_ctk".
 */
// Stryker disable next-line BlockStatement: the namespace a label is filed under is the host's to derive (§4.6, §5.4), so no vector can know it; labels.test.ts 'deriveNamespace: the name lowercased, [^a-z0-9_] → _, i_ before a non-letter start or a reserved name; interceptor_<index> without one' pins it
export function deriveNamespace(name: string | undefined, index: number): string {
  // Stryker equivalent next-line ConditionalExpression `true` @7-46: the namespace a label is filed under is the host's to derive (§4.6, §5.4), so no vector can know it; labels.test.ts 'deriveNamespace: the name lowercased, [^a-z0-9_] → _, i_ before a non-letter start or a reserved name; interceptor_<index> without one' pins it
  // Stryker equivalent next-line ConditionalExpression `false` @29-46: the namespace a label is filed under is the host's to derive (§4.6, §5.4), so no vector can know it; labels.test.ts 'deriveNamespace: the name lowercased, [^a-z0-9_] → _, i_ before a non-letter start or a reserved name; interceptor_<index> without one' pins it
  // Stryker equivalent next-line EqualityOperator `name.length !== 0` @29-46: the namespace a label is filed under is the host's to derive (§4.6, §5.4), so no vector can know it; labels.test.ts 'deriveNamespace: the name lowercased, [^a-z0-9_] → _, i_ before a non-letter start or a reserved name; interceptor_<index> without one' pins it
  if (name === undefined || name.length === 0) return `interceptor_${index}`;
  // Stryker disable next-line MethodExpression,StringLiteral: the namespace a label is filed under is the host's to derive (§4.6, §5.4), so no vector can know it; labels.test.ts 'deriveNamespace: the name lowercased, [^a-z0-9_] → _, i_ before a non-letter start or a reserved name; interceptor_<index> without one' pins it
  let ns = name.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  // Stryker disable next-line StringLiteral,ConditionalExpression,LogicalOperator,BooleanLiteral,Regex: the namespace a label is filed under is the host's to derive (§4.6, §5.4), so no vector can know it; labels.test.ts 'deriveNamespace: the name lowercased, [^a-z0-9_] → _, i_ before a non-letter start or a reserved name; interceptor_<index> without one' pins it
  if (!/^[a-z]/.test(ns) || RESERVED_NAMESPACES.has(ns)) ns = `i_${ns}`;
  return ns;
}

/** Ordered union of label sets (per namespace, first-seen order). */
export function mergeLabels(...sets: Array<LabelSet | undefined>): LabelSet {
  const out: LabelSet = {};
  for (const set of sets) {
    if (!set) continue;
    for (const [ns, labels] of Object.entries(set)) {
      const into = (out[ns] ??= []);
      for (const l of labels) if (!into.includes(l)) into.push(l);
    }
  }
  // Stryker equivalent next-line ConditionalExpression `false` @42-63: no host the suite builds hands in an empty namespace list (the emitter files a permit's labels only when it has some, and every later merge is of such sets), so only an integrator's own label set reaches this (labels.test.ts 'mergeLabels: ordered union per namespace, first-seen order, no duplicates, empty namespaces dropped, inputs untouched')
  for (const ns of Object.keys(out)) if (out[ns]!.length === 0) delete out[ns];
  return out;
}

// Stryker disable next-line BlockStatement: equivalent: a set called non-empty when empty only adds an empty `extensions` object to a context, which resurfaces no label; §4.5 and §5.4 leave open whether a context with no extension data carries the member (labels.test.ts pins isEmptyLabels and labelsToExtensions)
export function isEmptyLabels(set: LabelSet): boolean {
  // Stryker equivalent next-line ConditionalExpression `false` @10-39: equivalent: a set called non-empty when empty only adds an empty `extensions` object to a context, which resurfaces no label; §4.5 and §5.4 leave open whether a context with no extension data carries the member (labels.test.ts pins isEmptyLabels and labelsToExtensions)
  return Object.keys(set).length === 0;
}

/** The `extensions` member resurfacing `set`, or undefined when there is nothing to resurface. */
export function labelsToExtensions(set: LabelSet): JsonObject | undefined {
  // Stryker equivalent next-line ConditionalExpression `false` @7-25: equivalent: a set called non-empty when empty only adds an empty `extensions` object to a context, which resurfaces no label; §4.5 and §5.4 leave open whether a context with no extension data carries the member (labels.test.ts pins isEmptyLabels and labelsToExtensions)
  if (isEmptyLabels(set)) return undefined;
  const ext: JsonObject = {};
  for (const [ns, labels] of Object.entries(set)) ext[ns] = { source_labels: [...labels] };
  return ext;
}
