// The framework integrations this repository ships, one row each: what the parametrised suites
// (integrations/*.test.ts), the packaging check and the bench (bench/frameworks.ts) iterate. Adding an integration is
// adding its row. Every package named here exports `./ctk-harness` (createHarness), `./bench` (the row's factory)
// and `./scenario` (refundScenario, the shared user's-hands scenario).

export interface FrameworkEntry {
  /** agent.framework, the folder under integrations/ and under reports/claims/. */
  name: string;
  /** The npm package. */
  package: string;
  /** The factory `${package}/bench` exports, and the bench's warm-up rounds for it. */
  bench: { factory: string; warmup: number };
  /** The lowest Node major the framework's supported release runs on, and why (absent: any Node the CTK runs on). */
  node?: { major: number; why: string };
}

export const FRAMEWORKS: readonly FrameworkEntry[] = [
  { name: 'ai-sdk', package: '@agent-hooks-ctk/ai-sdk', bench: { factory: 'aiSdkBenchRuns', warmup: 200 }, node: { major: 22, why: 'ai@7 declares engines node >=22' } },
  { name: 'langchain', package: '@agent-hooks-ctk/langchain', bench: { factory: 'langchainBenchRuns', warmup: 80 } },
  { name: 'openai-agents', package: '@agent-hooks-ctk/openai-agents', bench: { factory: 'openaiAgentsBenchRuns', warmup: 100 }, node: { major: 22, why: '@openai/agents-core@0.20 depends on openai@7, which declares engines node >=22' } },
];

/** Why `fw` cannot run on this Node (a skip reason naming both versions), or false when it can. */
export function unsupported(fw: FrameworkEntry, version: string = process.versions.node): string | false {
  const major = Number(version.split('.')[0]);
  if (fw.node === undefined || major >= fw.node.major) return false;
  return `${fw.package} needs Node >= ${fw.node.major} (${fw.node.why}); this is Node ${version}`;
}
