// Child process for the round-trip benchmark: on `bench_intercepts`, issues N `intercept` requests to the
// CTK over stdio (exactly what a host-side proxy does per interceptor call) and returns each round trip's µs.
import { performance } from 'node:perf_hooks';
import { RpcPeer } from '../src/harness/stdio/rpc-peer.js';
import { preToolCallContext } from './contexts.js';

const peer = new RpcPeer({
  write: (line) => process.stdout.write(line + '\n'),
  onViolation: (problem) => process.stderr.write(`bench host: protocol violation: ${problem}\n`),
  handleRequest: async (method, params) => {
    if (method !== 'bench_intercepts') throw new Error(`unknown method ${method}`);
    const { count, bytes } = params as { count: number; bytes: number };
    const context = preToolCallContext(bytes);
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const start = performance.now();
      await peer.request('intercept', { index: 0, context });
      times.push((performance.now() - start) * 1000);
    }
    return times;
  },
});
process.stdin.on('data', (chunk: Buffer) => peer.feed(chunk));
process.stdin.on('end', () => process.exit(0));
