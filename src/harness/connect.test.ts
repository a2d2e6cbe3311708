import t from 'tap';
import path from 'node:path';
import { PACKAGE_ROOT } from '../version.js';
import type { Harness } from './contract.js';
import { closeHarness, connectHarness, describeSurface, DescribeError, HarnessChoiceError } from './connect.js';

t.test('the reference host by default, in either configuration, under the postures a surface file declares', async (t) => {
  const buffered = await connectHarness({});
  t.equal(buffered.label, 'reference');
  t.equal((await describeSurface(buffered, undefined, 1000)).buffered_output, true);
  const incremental = await connectHarness({ reference: 'incremental' });
  t.equal(incremental.label, 'reference (incremental)');
  t.ok((await incremental.harness.describe()).capabilities.includes('incremental_output'));
  const dir = t.testdir({ 'terminate.yaml': 'postures:\n  tool_seam_host_error: terminate\n', 'bad.yaml': 'postures:\n  tool_seam_host_error: sometimes\n' });
  const terminate = await connectHarness({ surfaceFile: path.join(dir, 'terminate.yaml') });
  t.equal((await terminate.harness.describe()).postures.tool_seam_host_error, 'terminate', 'the host runs what the file declares');
  await t.rejects(connectHarness({ surfaceFile: path.join(dir, 'bad.yaml') }), { name: 'HarnessChoiceError', message: /^invalid declared surface: .*bad\.yaml: \/postures\/tool_seam_host_error: must be one of/ });
  await t.rejects(connectHarness({ surfaceFile: path.join(dir, 'missing.yaml') }), { name: 'HarnessChoiceError', message: /missing\.yaml: cannot read surface file \(no such file\)/ });
});

t.test('an in-process module or a stdio command, never two hosts at once', async (t) => {
  const mjs = await connectHarness({ module: path.join(PACKAGE_ROOT, 'examples', 'mjs-host', 'harness.mjs') });
  t.match(mjs.label, /^in-process:.*harness\.mjs$/);
  t.equal(typeof (await mjs.harness.describe()).name, 'string');
  const stdio = await connectHarness({ command: `${process.execPath} -e ""`, timeoutMs: 1000 });
  t.match(stdio.label, /^stdio:/);
  t.equal(await closeHarness(stdio, 1000), undefined);
  const bad: Array<[Parameters<typeof connectHarness>[0], RegExp]> = [
    [{ module: 'a.mjs', command: 'b' }, /^give either --harness or --harness-cmd, not both$/],
    [{ reference: 'buffered', command: 'b' }, /^--reference picks a configuration of the built-in reference host/],
    [{ reference: 'streaming' }, /^--reference: unknown configuration "streaming" \(known: buffered, incremental\)$/],
    [{ module: path.join(PACKAGE_ROOT, 'no-such-module') }, /^--harness .*no-such-module: no such module/],
    [{ command: "host 'unterminated" }, /^--harness-cmd: unterminated single quote/],
  ];
  for (const [choice, message] of bad) await t.rejects(connectHarness(choice), { name: 'HarnessChoiceError', message }, JSON.stringify(choice));
  t.ok(new HarnessChoiceError('x') instanceof Error);
});

t.test('a host that does not describe itself, and one that does not close cleanly', async (t) => {
  const silent: Harness = {
    describe: () => new Promise(() => {}),
    setup: async () => {},
    run: async () => ({ outcome: 'completed', final_output: null, identities: [], records: [] }),
    teardown: async () => {},
    close: async () => {
      throw new Error('socket gone');
    },
  };
  const connected = { harness: silent, label: 'silent' };
  await t.rejects(describeSurface(connected, undefined, 20), new DescribeError('silent', 'describe() did not answer within 20 ms'));
  const dir = t.testdir({ 's.yaml': 'name: declared\nversion: "1"\nprofiles: {}\n' });
  t.equal((await describeSurface(connected, path.join(dir, 's.yaml'), 20)).name, 'declared', 'the surface file stands in for describe()');
  t.equal(await closeHarness(connected, 1000), 'warning: the harness (silent) close() failed: socket gone');
  t.equal(await closeHarness({ harness: { ...silent, close: () => new Promise(() => {}) }, label: 'slow' }, 20), 'warning: the harness (slow) did not finish close() within 20 ms; not waiting for it');
});
