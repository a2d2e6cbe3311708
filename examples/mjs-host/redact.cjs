// A CommonJS module, as many framework SDKs still are: the approval redactor's path logic.
// harness.mjs loads it with createRequire (see README.md, "Loading a CommonJS SDK").
'use strict';

/** `$target.a.b[0]` → ['a', 'b', 0]; undefined when the path is not one this helper understands. */
function parseTargetPath(path) {
  const m = /^\$target((?:\.[A-Za-z0-9_-]+|\[(?:0|[1-9]\d*)\])*)$/.exec(path);
  if (!m) return undefined;
  return [...m[1].matchAll(/\.([A-Za-z0-9_-]+)|\[(\d+)\]/g)].map((s) => (s[1] !== undefined ? s[1] : Number(s[2])));
}

/** A copy of `target` with every resolvable path replaced by "[redacted]"; unresolvable paths are left alone. */
function redactTarget(target, paths) {
  let out = structuredClone(target);
  for (const p of paths) {
    const segments = parseTargetPath(p);
    if (segments === undefined) continue;
    if (segments.length === 0) {
      out = '[redacted]';
      continue;
    }
    let parent = out;
    const resolvable = segments.every((seg, i) => {
      if (i === segments.length - 1) return holds(parent, seg);
      if (!holds(parent, seg)) return false;
      parent = parent[seg];
      return true;
    });
    if (resolvable) parent[segments[segments.length - 1]] = '[redacted]';
  }
  return out;
}

function holds(container, seg) {
  if (typeof seg === 'number') return Array.isArray(container) && seg < container.length;
  return container !== null && typeof container === 'object' && !Array.isArray(container) && Object.prototype.hasOwnProperty.call(container, seg);
}

module.exports = { redactTarget };
