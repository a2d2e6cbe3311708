// The framework integrations this repository ships, one row each: what the parametrised suites
// (integrations/*.test.ts), the packaging check and the bench (bench/frameworks.ts) iterate. Adding an integration is
// adding its row. Every package named here exports `./ctk-harness` (createHarness), `./bench` (the row's factory)
// and `./scenario` (refundScenario, the shared user's-hands scenario).
import { nodeOlderThan } from 'agent-hooks-ctk/host';

export interface FrameworkEntry {
  /** agent.framework, the folder under integrations/ and under reports/claims/. */
  name: string;
  /** The npm package. */
  package: string;
  /** The factory `${package}/bench` exports, and the bench's warm-up rounds for it. */
  bench: { factory: string; warmup: number };
  /**
   * The lowest Node the framework's supported release runs on ("22", "22.13"), and why (absent: any Node the CTK runs
   * on). The package's engines states the same (the packaging test checks it).
   */
  node?: { version: string; why: string };
}

export const FRAMEWORKS: readonly FrameworkEntry[] = [
  { name: 'ai-sdk', package: '@agent-hooks-ctk/ai-sdk', bench: { factory: 'aiSdkBenchRuns', warmup: 200 }, node: { version: '22', why: 'ai@7 declares engines node >=22' } },
  { name: 'langchain', package: '@agent-hooks-ctk/langchain', bench: { factory: 'langchainBenchRuns', warmup: 80 } },
  { name: 'openai-agents', package: '@agent-hooks-ctk/openai-agents', bench: { factory: 'openaiAgentsBenchRuns', warmup: 100 }, node: { version: '22', why: '@openai/agents-core@0.20 depends on openai@7, which declares engines node >=22' } },
  { name: 'google-adk', package: '@agent-hooks-ctk/google-adk', bench: { factory: 'googleAdkBenchRuns', warmup: 100 } },
  { name: 'mastra', package: '@agent-hooks-ctk/mastra', bench: { factory: 'mastraBenchRuns', warmup: 100 }, node: { version: '22.13', why: '@mastra/core@1 declares engines node >=22.13.0' } },
];

/** Why `fw` cannot run on this Node (a skip reason naming both versions), or false when it can. */
export function unsupported(fw: FrameworkEntry, version: string = process.versions.node): string | false {
  if (fw.node === undefined || !nodeOlderThan(fw.node.version, version)) return false;
  return `${fw.package} needs Node >= ${fw.node.version} (${fw.node.why}); this is Node ${version}`;
}
