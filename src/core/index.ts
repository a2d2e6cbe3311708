// The spec core: everything the reference host and the CTK share (see API.md).
export * from './types.js';
export * from './agent-io.js';
export * from './reasons.js';
export * from './errors.js';
export * from './json.js';
export * from './paths.js';
export * from './canonical.js';
export * from './domain-scan.js';
export * from './envelope.js';
export * from './identity.js';
export * from './verdict-gate.js';
export * from './schemas.js';
export * from './json-text.js';
export * from './number-domain.js';
export * from './postures.js';
export * from './readings.js';
export * from './utf8.js';
