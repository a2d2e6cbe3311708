// report.html: one self-contained page (inline CSS and JS only, no external asset of any kind).
// The declared surface on top, then a per-part matrix readable at a glance, then every failure
// in an expandable <details>, then skips and the digest of every vector. All text is HTML-escaped.
import type { ConformanceReport, VectorResult } from '../results/model.js';
import { failedCell, formatValue, selectionText, surfaceSummary, visibleControls } from './format.js';
import { groupByPart, isExpectedFailure, isStale, partName, tally, verdictOf } from '../results/tally.js';
import { repeatNote } from '../ctk/failures.js';
import { markText } from '../results/expected-failures.js';

export function htmlEscape(text: string): string {
  return visibleControls(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const CSS = `
:root{--pass:#2da44e;--fail:#cf222e;--skip:#8c959f;--xfail:#bf8700;--ink:#1f2328;--muted:#59636e;--line:#d1d9e0}
*{box-sizing:border-box}body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--ink);margin:0 auto;max-width:1100px;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{background:#f6f8fa}td.n{text-align:right;font-variant-numeric:tabular-nums}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}pre{background:#f6f8fa;padding:8px;overflow:auto;white-space:pre-wrap;word-break:break-all}
.banner{padding:10px 14px;border-radius:6px;color:#fff;font-weight:600;margin:12px 0}
.banner.pass{background:var(--pass)}.banner.fail{background:var(--fail)}.banner.none{background:var(--skip)}.banner.xfail{background:var(--xfail)}
.cells{display:flex;flex-wrap:wrap;gap:2px}.cell{width:12px;height:12px;border-radius:2px;display:inline-block}
.cell.pass{background:var(--pass)}.cell.fail{background:var(--fail)}.cell.skip{background:var(--skip);opacity:.5}.cell.xfail{background:var(--xfail)}.cell.stale{background:var(--fail);outline:2px solid var(--xfail)}
tr.fail td.part{border-left:4px solid var(--fail)}tr.pass td.part{border-left:4px solid var(--pass)}tr.skip td.part{border-left:4px solid var(--skip)}
.st-pass{color:var(--pass)}.st-fail{color:var(--fail)}.st-skip{color:var(--muted)}.st-xfail{color:var(--xfail)}
details{border:1px solid var(--line);border-radius:6px;padding:6px 10px;margin:6px 0}summary{cursor:pointer;font-weight:600}
.meta{color:var(--muted)}.legend span{margin-right:12px}button{font:inherit;margin:4px 0}
`;

const JS = `
function reveal(){var id=location.hash.slice(1);var e=id&&document.getElementById(id);if(!e)return;for(var d=e.closest('details');d;d=d.parentElement&&d.parentElement.closest('details'))d.open=true;e.scrollIntoView()}
window.addEventListener('hashchange',reveal);reveal();
document.getElementById('toggle-all')?.addEventListener('click',function(){var d=document.querySelectorAll('#failures details');var open=!Array.prototype.every.call(d,function(x){return x.open});d.forEach(function(x){x.open=open})});
`;

export function renderHtml(report: ConformanceReport): string {
  const e = htmlEscape;
  const t = tally(report.results);
  const verdict = verdictOf(report);
  const env = report.environment;
  const out: string[] = [];
  out.push('<!DOCTYPE html>', '<html lang="en">', '<head>', '<meta charset="utf-8">');
  out.push('<meta name="viewport" content="width=device-width, initial-scale=1">');
  out.push(`<title>${e(`Agent Hooks conformance: ${report.host.name} ${report.host.version}`)}</title>`);
  out.push(`<style>${CSS}</style>`, '</head>', '<body>');
  out.push(`<h1>Agent Hooks conformance: ${e(report.host.name)} ${e(report.host.version)}</h1>`);
  out.push(`<div class="banner ${verdict.state === 'pass' && t.expected > 0 ? 'xfail' : verdict.state}">${e(`${verdict.word}: ${verdict.detail}`)}</div>`);
  out.push('<table class="facts">');
  out.push(row('CTK', `${e(report.ctk.name)} ${e(report.ctk.version)}`));
  out.push(row('Spec', e(report.spec)));
  out.push(row('Suite digest', `<code>${e(report.suite.digest)}</code> (${report.suite.vectors} vectors)`));
  const selection = selectionText(report);
  if (selection) out.push(row('Selection', e(selection)));
  if (report.baseline) out.push(row('Expected failures', `<code>${e(report.baseline.file)}</code>: ${e(`${report.baseline.entries} entries; ${t.expected} expected failures, ${t.stale} stale`)}`));
  if (env) {
    out.push(row('Date', e(env.finished_at || env.started_at)));
    out.push(row('Environment', `Node ${e(env.node)}, ${e(env.platform)}/${e(env.arch)}, harness ${e(env.harness)}`));
  }
  out.push('</table>');

  out.push('<h2>Declared surface (§13.1)</h2>', '<table>');
  for (const [label, value] of surfaceSummary(report.host.surface)) out.push(row(e(label), e(value)));
  out.push('</table>');

  out.push('<h2>Results by part</h2>');
  out.push(
    '<p class="legend"><span class="st-pass">■ passed</span><span class="st-fail">■ failed</span><span class="st-skip">■ skipped</span>' +
      (report.baseline ? '<span class="st-xfail">■ expected failure</span>' : '') +
      '</p>',
  );
  out.push('<table class="matrix"><thead><tr><th>Part</th><th>Passed</th><th>Failed</th><th>Skipped</th><th>Vectors</th></tr></thead><tbody>');
  for (const g of groupByPart(report)) {
    const cls = g.failed - g.expected > 0 || g.stale > 0 ? 'fail' : g.passed > 0 || g.failed > 0 ? 'pass' : 'skip';
    const cells = g.results
      .map((r) => {
        const label = e(`${r.id} ${r.title}: ${statusText(r)}${r.reason ? ` (${r.reason})` : ''}`);
        return `<a href="#${anchor(r)}" class="cell ${cellClass(r)}" title="${label}" aria-label="${label}"></a>`;
      })
      .join('');
    out.push(
      `<tr class="${cls}"><td class="part">${e(g.part)}</td><td class="n">${g.passed}</td><td class="n">${e(failedCell(g.failed, g.expected, g.stale))}</td>` +
        `<td class="n">${g.skipped}</td><td><div class="cells">${cells}</div></td></tr>`,
    );
  }
  out.push(`<tr><th>Total</th><th class="n">${t.passed}</th><th class="n">${e(failedCell(t.failed, t.expected, t.stale))}</th><th class="n">${t.skipped}</th><th></th></tr>`);
  out.push('</tbody></table>');

  const failed = report.results.filter((r) => r.status === 'fail' && !isExpectedFailure(r));
  const expected = report.results.filter(isExpectedFailure);
  out.push(`<h2>Failures (${failed.length})</h2>`, '<div id="failures">');
  if (failed.length === 0) out.push('<p>None.</p>');
  if (failed.length + expected.length > 0) out.push('<button type="button" id="toggle-all">Expand / collapse all</button>');
  for (const r of failed) out.push(renderFailed(r));
  if (report.baseline) {
    out.push(`<h2>Expected failures (${expected.length})</h2>`);
    if (expected.length === 0) out.push('<p>None.</p>');
    else out.push(`<p>Listed in <code>${e(report.baseline.file)}</code>: they failed as listed, so they do not fail the run; they still count as failures, and no claim can be made while any remain.</p>`);
    for (const r of expected) out.push(renderFailed(r));
    const stale = report.results.filter(isStale);
    out.push(`<h2>Stale baseline entries (${stale.length})</h2>`);
    if (stale.length === 0) out.push('<p>None.</p>');
    else {
      out.push('<p>Listed as expected failures, these vectors did not fail: each fails the run until its entry is dropped.</p>');
      out.push('<table><thead><tr><th>Vector</th><th>Part</th><th>Now</th><th>Listed reason</th></tr></thead><tbody>');
      for (const r of stale)
        out.push(
          `<tr id="${anchor(r)}"><td>${e(r.id)} ${e(r.title)}</td><td>${e(partName(r.part))}</td><td>${e(r.status === 'pass' ? 'passed' : `skipped: ${r.reason ?? 'no reason given'}`)}</td><td>${e(r.expected_failure!.reason)}</td></tr>`,
        );
      out.push('</tbody></table>');
    }
  }
  out.push('</div>');

  const skipped = report.results.filter((r) => r.status === 'skip');
  out.push(`<h2>Skipped (${skipped.length})</h2>`);
  if (skipped.length === 0) out.push('<p>None.</p>');
  else {
    out.push('<table><thead><tr><th>Vector</th><th>Part</th><th>Reason</th></tr></thead><tbody>');
    for (const r of skipped) out.push(`<tr${isStale(r) ? '' : ` id="${anchor(r)}"`}><td>${e(r.id)} ${e(r.title)}</td><td>${e(partName(r.part))}</td><td>${e(r.reason ?? 'no reason given')}</td></tr>`);
    out.push('</tbody></table>');
  }

  out.push('<h2>All vectors</h2>', '<details><summary>Every vector, its status and the digest it ran with</summary>');
  out.push('<table><thead><tr><th>Vector</th><th>Part</th><th>Clause</th><th>Status</th><th>Digest</th></tr></thead><tbody>');
  for (const r of report.results) {
    const id = r.status === 'pass' && !isStale(r) ? ` id="${anchor(r)}"` : '';
    out.push(
      `<tr${id}><td>${e(r.id)} ${e(r.title)}</td><td>${e(partName(r.part))}</td><td>§${e(r.spec_clause)}</td>` +
        `<td class="st-${isExpectedFailure(r) ? 'xfail' : r.status}">${e(statusText(r))}</td><td><code>${e(r.digest)}</code></td></tr>`,
    );
  }
  out.push('</tbody></table></details>');
  out.push(`<p class="meta">Re-check with <code>agent-hooks-ctk verify-report report.json --vectors DIR</code>. Conformance attests the verdict contract under CTK conditions; it is not a security certification (§1.4).</p>`);
  out.push(`<script>${JS}</script>`, '</body>', '</html>', '');
  return out.join('\n');
}

/** "fail", "fail (expected)", "pass (stale entry)". */
function statusText(r: VectorResult): string {
  return `${r.status}${isExpectedFailure(r) ? ' (expected)' : isStale(r) ? ' (stale entry)' : ''}`;
}

function cellClass(r: VectorResult): string {
  return isExpectedFailure(r) ? 'xfail' : isStale(r) ? 'stale' : r.status;
}

function row(label: string, valueHtml: string): string {
  return `<tr><th>${label}</th><td>${valueHtml}</td></tr>`;
}

/** A stable, HTML-safe fragment id for a vector. */
function anchor(r: VectorResult): string {
  return 'v-' + r.id.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`);
}

function renderFailed(r: VectorResult): string {
  const e = htmlEscape;
  const items = r.failures
    .map((f) => {
      const values =
        f.expected !== undefined || f.got !== undefined
          ? `<pre>expected: ${e(formatValue(f.expected))}\ngot:      ${e(formatValue(f.got))}</pre>`
          : '';
      return `<li><code>${e(f.check)}</code> (§${e(f.clause)})${f.path ? ` at <code>${e(f.path)}</code>` : ''}: ${e(f.message + repeatNote(f))}${values}</li>`;
    })
    .join('');
  const expected = isExpectedFailure(r);
  return (
    `<details id="${anchor(r)}"><summary><span class="st-${expected ? 'xfail' : 'fail'}">${expected ? '~' : '✗'}</span> ${e(r.id)} ${e(r.title)} <span class="meta">(${e(partName(r.part))}, §${e(r.spec_clause)})</span></summary>` +
    (r.reason ? `<p>${e(r.reason)}</p>` : '') +
    (r.expected_failure ? `<p><strong>${e(markText(r)!)}</strong></p>` : '') +
    (r.file ? `<p class="meta">File: <code>${e(r.file)}</code></p>` : '') +
    `<ol>${items || '<li>(the runner recorded no individual check)</li>'}</ol></details>`
  );
}
