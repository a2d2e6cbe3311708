// The stdio harness protocol "agent-hooks-ctk/1": public surface for the package index.
export { createStdioHarness, StdioHostError, StdioStartError, DEFAULT_TIMEOUT_MS, type StdioHarnessOptions } from './client.js';
export { serveHarnessOverStdio, type ServeOptions } from './server.js';
export { HARNESS_PROTOCOL } from '../contract.js';
export { CTK_METHODS, HOST_METHODS, MAX_LINE_BYTES, RPC_ERROR } from './protocol.js';
export { splitCommandLine, CommandLineError } from './command-line.js';
export { scaffoldFiles, SCAFFOLD_LANGS, type ScaffoldLang, type ScaffoldFile } from './scaffold.js';
