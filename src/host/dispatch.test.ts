// §7 dispatch of one interceptor (dispatch.ts): the paths the CTK cannot take, because its scripted interceptors
// always answer asynchronously (harness/scripted.ts; a wire harness cannot answer synchronously): a synchronous
// throw, a callable thenable, and a fault in the dispatch machinery itself. The mutation run's `Stryker disable`
// comments in dispatch.ts name these tests.
import t from 'tap';
import { HOST_ERROR, validateVerdict as gateVerdict, type JsonObject } from '../core/index.js';
import { copyForInterceptor, invokeInterceptor, mapInterceptorFailure, type InvokeDeps } from './dispatch.js';

const ctx: JsonObject = { spec: '0.1', interception_point: 'input' };
const deps: InvokeDeps = { copyForInterceptor, gateVerdict, mapInterceptorFailure };

t.test('a synchronous throw is interceptor_failed naming the type only (§6.3)', async (t) => {
  const slot = await invokeInterceptor({ name: 'sync', intercept: () => { throw new RangeError('ACCT-1 leaked'); } }, 2, ctx, 50, deps);
  t.same(slot, { index: 2, name: 'sync', verdict: { decision: 'deny', reason: HOST_ERROR.interceptor_failed, message: 'interceptor raised RangeError' }, failure: { kind: 'raise', errorType: 'RangeError' } });
});

t.test('a callable thenable is awaited like a promise; a synchronous verdict is gated as it is', async (t) => {
  const thenable = Object.assign(() => undefined, { then: (resolve: (v: unknown) => void) => resolve({ decision: 'deny', reason: 'ctk:fn' }) });
  const slot = await invokeInterceptor({ intercept: () => thenable as never }, 0, ctx, 50, deps);
  t.same(slot.verdict, { decision: 'deny', reason: 'ctk:fn' });
  t.equal(slot.failure, undefined);
  const sync = await invokeInterceptor({ intercept: () => ({ decision: 'allow' }) }, 1, ctx, 50, deps);
  t.same(sync, { index: 1, verdict: { decision: 'allow' } });
});

t.test('a fault in the dispatch machinery fails closed in the slot as interceptor_failed (§1.3)', async (t) => {
  class CopyFault extends Error {}
  const broken: InvokeDeps = { ...deps, copyForInterceptor: () => { throw new CopyFault('x'); } };
  const slot = await invokeInterceptor({ intercept: async () => ({ decision: 'allow' }) }, 0, ctx, 50, broken);
  t.same(slot, { index: 0, verdict: { decision: 'deny', reason: HOST_ERROR.interceptor_failed, message: 'interceptor raised CopyFault' }, failure: { kind: 'raise', errorType: 'CopyFault' } });
});
