// The mutation run's host built on the hook session: the CTK's session host (src/harness/ctk-session-host.ts), a
// minimal framework whose own loop calls the session at each interception point, as every integration does. It is
// imported by relative path (../dist), never through the package name: in Stryker's sandbox node_modules is a
// symlink to the original checkout, and `agent-hooks-ctk` would resolve there, to the unmutated code.
export { createCtkSessionHost as createHarness, ctkSessionHostSurface as sessionHostSurface } from '../dist/src/harness/ctk-session-host.js';
export { createCtkSessionHost as default } from '../dist/src/harness/ctk-session-host.js';
