// badge.svg: a shields-style flat badge, "agent-hooks 0.1 | passed/applicable".
// Green when every applicable vector passed, red when the run failed, grey when nothing ran; amber when the run passed
// only because an expected-failures baseline expects its failures ("180/213, 33 expected": not 100%).
import type { ConformanceReport } from '../results/model.js';
import { specVersion } from './format.js';
import { tally, verdictOf } from '../results/tally.js';
import { xmlEscape } from './xml.js';

export const BADGE_COLOURS = { pass: '#4c1', fail: '#e05d44', none: '#9f9f9f', expected: '#dfb317' } as const;

export interface BadgeText {
  label: string;
  value: string;
  colour: string;
}

export function badgeText(report: ConformanceReport): BadgeText {
  const t = tally(report.results);
  const label = `agent-hooks ${specVersion(report.spec)}`;
  if (t.applicable === 0) return { label, value: 'nothing ran', colour: BADGE_COLOURS.none };
  const state = verdictOf(report).state;
  const value = `${t.passed}/${t.applicable}${t.expected > 0 ? `, ${t.expected} expected` : ''}`;
  return { label, value, colour: state !== 'pass' ? BADGE_COLOURS.fail : t.expected > 0 ? BADGE_COLOURS.expected : BADGE_COLOURS.pass };
}

export function renderBadge(report: ConformanceReport): string {
  const { label, value, colour } = badgeText(report);
  const lw = textWidth(label) + 10;
  const vw = textWidth(value) + 10;
  const w = lw + vw;
  const l = xmlEscape(label);
  const v = xmlEscape(value);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${l}: ${v}">` +
    `<title>${l}: ${v}</title>` +
    `<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>` +
    `<clipPath id="r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath>` +
    `<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${vw}" height="20" fill="${colour}"/>` +
    `<rect width="${w}" height="20" fill="url(#s)"/></g>` +
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">` +
    `<text x="${lw / 2}" y="15" fill="#010101" fill-opacity=".3">${l}</text><text x="${lw / 2}" y="14">${l}</text>` +
    `<text x="${lw + vw / 2}" y="15" fill="#010101" fill-opacity=".3">${v}</text><text x="${lw + vw / 2}" y="14">${v}</text>` +
    `</g></svg>\n`
  );
}

/** Approximate rendered width of Verdana 11px text, in whole pixels. */
export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) {
    if ('ijl.,:;|!\'`'.includes(ch)) w += 3.5;
    else if ('frt -/()[]'.includes(ch)) w += 4.5;
    else if ('mwMW@%'.includes(ch)) w += 10;
    else if (ch >= 'A' && ch <= 'Z') w += 7.5;
    else w += 7;
  }
  return Math.ceil(w);
}
