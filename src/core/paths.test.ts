// §5.2 target paths (grammar: GRAMMAR.md §7.1) and the dotted match/assert paths (GRAMMAR.md §7.2).
import t from 'tap';
import { parseTargetPath, resolvePath, setPath, parseDottedPath, getDotted, formatPath, tryParseDottedPath, type PathSegment } from './paths.js';
import { PathSyntaxError } from './errors.js';
import type { Json } from './types.js';

const FORBIDDEN = 'host_error:transform_target_forbidden';
const INVALID = 'host_error:transform_invalid';

function segs(path: string): PathSegment[] {
  const r = parseTargetPath(path);
  if (!r.ok) throw new Error(`${path}: ${r.detail}`);
  return r.segments;
}

t.test('grammar: roots and the three segment forms', async (t) => {
  t.same(segs('$target'), []);
  t.same(segs('$policy_target'), [], '§5.2 deprecated alias is accepted as $target');
  t.same(segs('$target.a'), [{ kind: 'member', name: 'a' }]);
  t.same(segs('$policy_target.a[2]'), [{ kind: 'member', name: 'a' }, { kind: 'index', index: 2 }]);
  t.same(segs('$target["x-y_1"][0].Z9'), [{ kind: 'member', name: 'x-y_1' }, { kind: 'index', index: 0 }, { kind: 'member', name: 'Z9' }]);
  t.same(segs('$target[10][0]'), [{ kind: 'index', index: 10 }, { kind: 'index', index: 0 }]);
  t.same(segs('$target.0'), [{ kind: 'member', name: '0' }], 'a digit name after a dot is a member name');
});

t.test('not rooted at $target → transform_target_forbidden', async (t) => {
  for (const p of ['target.a', '$.a', '$', '$targetx', '$target_x', '$target-1', '$targets.a', '$policy_targetx', '$context.target', 'agent.id', '', ' $target', '$TARGET', '$policy', '$input.content']) {
    const r = parseTargetPath(p);
    t.equal(r.ok ? 'ok' : r.reason, FORBIDDEN, JSON.stringify(p));
  }
  for (const v of [undefined, null, 3, ['$target'], { path: '$target' }]) {
    const r = parseTargetPath(v);
    t.equal(r.ok ? 'ok' : r.reason, FORBIDDEN, `non-string ${JSON.stringify(v)}`);
  }
});

t.test('rooted but malformed → transform_invalid', async (t) => {
  for (const p of [
    '$target.', '$target..a', '$target.a.', '$target[', '$target[]', '$target[-1]', '$target[01]', '$target[1.5]', '$target[a]',
    "$target['a']", '$target[""]', '$target["a.b"]', '$target["a"', '$target.a b', '$target.a$', '$target.é', '$target[*]', '$target[0:1]',
    '$target[?(@.a)]', '$target.*', '$target ', '$target]', '$target[99999999999999999999]',
  ]) {
    const r = parseTargetPath(p);
    t.equal(r.ok ? 'ok' : r.reason, INVALID, JSON.stringify(p));
  }
});

t.test('resolvePath', async (t) => {
  const root: Json = { a: [{ b: null }, 2], c: { d: 'x' } };
  t.same(resolvePath(root, segs('$target.a[0].b')), { found: true, value: null }, 'null is found');
  t.same(resolvePath(root, segs('$target')), { found: true, value: root });
  t.same(resolvePath(root, segs('$target.a[2]')), { found: false });
  t.same(resolvePath(root, segs('$target.c[0]')), { found: false }, 'index on an object');
  t.same(resolvePath(root, segs('$target.a.b')), { found: false }, 'member on an array');
  t.same(resolvePath(root, segs('$target.c.d.e')), { found: false }, 'member on a string');
  t.same(resolvePath({}, segs('$target.toString')), { found: false }, 'prototype members do not resolve');
});

t.test('setPath replaces exactly the addressed location and never mutates', async (t) => {
  const root = { a: [{ b: 1 }, { b: 2 }], keep: { k: [1, 2] } };
  const before = JSON.stringify(root);
  const value = { n: 1 };
  const r = setPath(root, segs('$target.a[1].b'), value);
  t.ok(r.ok);
  if (!r.ok) return;
  t.same(r.root, { a: [{ b: 1 }, { b: { n: 1 } }], keep: { k: [1, 2] } });
  t.equal(JSON.stringify(root), before, 'input root unchanged');
  value.n = 2;
  t.same((r.root as { a: Array<{ b: unknown }> }).a[1]!.b, { n: 1 }, 'value deep-copied');
  t.same(setPath(root, [], 'whole'), { ok: true, root: 'whole' }, 'segments [] replace the whole target');
  t.same(setPath([1, 2, 3], segs('$target[2]'), null), { ok: true, root: [1, 2, null] }, 'null is a value');
});

t.test('setPath on a "__proto__" member rewrites the member, never the prototype', async (t) => {
  const root = JSON.parse('{"__proto__":{"a":1},"b":2}') as Json;
  const r = setPath(root, segs('$target.__proto__.a'), 9);
  t.ok(r.ok);
  if (!r.ok) return;
  t.equal(JSON.stringify(r.root), '{"__proto__":{"a":9},"b":2}');
  t.equal(Object.getPrototypeOf(r.root), Object.prototype);
  t.equal(setPath({ b: 1 }, segs('$target.__proto__'), 1).ok, false, 'an inherited name does not resolve');
});

t.test('setPath: paths that do not resolve → transform_invalid', async (t) => {
  const root = { a: [1], o: { x: 1 }, s: 'str', n: null };
  for (const p of ['$target.missing', '$target.o.y', '$target.a[1]', '$target.a.x', '$target.o[0]', '$target.s.x', '$target.s[0]', '$target.n.x', '$target.missing.deeper']) {
    const r = setPath(root, segs(p), 1);
    t.equal(r.ok ? 'ok' : r.reason, INVALID, p);
    if (!r.ok) t.match(r.detail, /did not resolve/, `${p}: detail says why`);
  }
  t.equal(setPath('scalar', segs('$target.x'), 1).ok, false, 'member on a scalar target');
  t.same(root, { a: [1], o: { x: 1 }, s: 'str', n: null }, 'root untouched after failures');
});

t.test('dotted paths for match/assert', async (t) => {
  const ctx: Json = { a: { b: [{ c: 1 }], 'x.y': 2, 'k-1': 3, 'ü': 4 }, list: [[5]] };
  t.same(getDotted(ctx, 'a.b[0].c'), { found: true, value: 1 });
  t.same(getDotted(ctx, 'a["x.y"]'), { found: true, value: 2 });
  t.same(getDotted(ctx, 'a.k-1'), { found: true, value: 3 });
  t.same(getDotted(ctx, 'a.ü'), { found: true, value: 4 });
  t.same(getDotted(ctx, 'list[0][0]'), { found: true, value: 5 });
  t.same(getDotted(ctx, '["a"].b[0]'), { found: true, value: { c: 1 } });
  t.same(getDotted(ctx, 'a.b[1].c'), { found: false }, 'miss');
  t.same(getDotted(ctx, 'a.zz'), { found: false }, 'miss');
  t.same(getDotted(ctx, 'a.b.c'), { found: false }, 'member on array is a miss');
  t.same(parseDottedPath('verdicts[1].reason'), [{ kind: 'member', name: 'verdicts' }, { kind: 'index', index: 1 }, { kind: 'member', name: 'reason' }]);
  for (const bad of ['', 'a..b', 'a.', '.a', 'a[', 'a[x]', 'a]', 'a["x"', 'a[-1]']) {
    t.throws(() => parseDottedPath(bad), PathSyntaxError, JSON.stringify(bad));
    t.equal(tryParseDottedPath(bad).ok, false);
  }
});

t.test('formatPath round-trips', async (t) => {
  for (const p of ['$target', '$target.a[0]["x.y"]', '$target[3].b-c']) {
    const parsed = p.includes('x.y') ? [{ kind: 'member' as const, name: 'a' }, { kind: 'index' as const, index: 0 }, { kind: 'member' as const, name: 'x.y' }] : segs(p);
    t.equal(formatPath(parsed), p);
  }
});

// The [dotted] branches of the mutation run's `Stryker disable` comments in paths.ts: only the CTK's vector paths reach them.
t.test('dotted paths: escapes inside quotes, the empty quoted name, non-strings, and the exact result shapes', async (t) => {
  t.strictSame(getDotted({ 'q"x': 1 }, '["q\\"x"]'), { found: true, value: 1 }, 'an escaped quote stays inside the name');
  t.strictSame(getDotted({ 'a]': 2 }, '["a]"]'), { found: true, value: 2 });
  t.strictSame(getDotted({ a: 1 }, 'b'), { found: false });
  t.strictSame(getDotted({ a: 1 }, 'a'), { found: true, value: 1 });
  t.strictSame(getDotted({ a: 1 }, 'a'), { found: true, value: 1 }, 'the second lookup of a path gives the same');
  t.strictSame(tryParseDottedPath('a[1]'), { ok: true, segments: [{ kind: 'member', name: 'a' }, { kind: 'index', index: 1 }] });
  for (const bad of ['[""]', 'a[""]', 'a["x"]y', '["a', 5 as unknown as string, null as unknown as string]) {
    t.throws(() => parseDottedPath(bad), PathSyntaxError, JSON.stringify(bad));
  }
  t.strictSame(resolvePath({ a: 1 }, [{ kind: 'member', name: 'b' }, { kind: 'member', name: 'c' }]), { found: false }, 'a miss stops the walk');
});

t.test('the PathSyntaxError names the path', async (t) => {
  const e = t.throws(() => parseDottedPath('a..b')) as Error;
  t.equal(e.name, 'PathSyntaxError');
  t.match(e.message, /^malformed path "a\.\.b": /);
});
