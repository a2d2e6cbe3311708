// Mastra's Node requirement, checked without loading Mastra (so a test on an older Node can skip, saying why).

/** The Node version @mastra/core requires (its engines field). */
export const MASTRA_NODE = '22.13';

/** Why this Node cannot run Mastra, or null when it can. */
export function mastraNodeUnsupported(version = process.versions.node): string | null {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 13)) return null;
  return `@mastra/core needs Node >= ${MASTRA_NODE} (this is Node ${version}); run under Node 24: bash scripts/node24.sh <command>`;
}
