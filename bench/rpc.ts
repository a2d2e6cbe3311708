// One intercept round trip over the stdio protocol: host → CTK `intercept` request, CTK answer, host parses it.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RpcPeer } from '../src/harness/stdio/rpc-peer.js';
import { median, round } from './stats.js';

export async function benchRpcRoundTrip(count = 2000, bytes = 1024): Promise<number> {
  const child = spawn(process.execPath, [path.join(path.dirname(fileURLToPath(import.meta.url)), 'rpc-echo-host.js')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const peer = new RpcPeer({
    write: (line) => child.stdin.write(line + '\n'),
    onViolation: (problem) => {
      throw new Error(`bench: host broke the protocol: ${problem}`);
    },
    handleRequest: async () => ({ kind: 'return', value: { decision: 'allow' } }),
  });
  child.stdout.on('data', (chunk: Buffer) => peer.feed(chunk));
  try {
    const times = (await peer.request('bench_intercepts', { count, bytes })) as number[];
    return round(median(times.slice(Math.floor(count / 4)))); // the first quarter is warm-up
  } finally {
    child.stdin.end();
    child.kill();
  }
}
