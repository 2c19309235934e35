import { HARD_KEYWORDS, VELOFLUX_WINDOWS } from '../../keywords';
import { isSymbol } from '../../lexer';
import { compactText, lowerWord, spacedText, splitItems } from '../../structure';
import type { VelofluxQuery } from '../query';
import type { VelofluxRule } from '../rule';

/**
 * With aggregates, a plain column in SELECT must textually equal a GROUP BY key. Catching the
 * common `SELECT device_id, avg(t) … GROUP BY tumblingwindow(…)` needs to know which functions
 * aggregate, so it only runs when the catalog says so.
 */
export const ungroupedColumns: VelofluxRule = {
  id: 'ungrouped-columns',
  check(q, out) {
    if (!q.hasAggregate) return;
    const { toks, s } = q;
    const keys = new Set<string>();
    const group = q.contentRange('group');
    if (group) {
      for (const [a, b] of splitItems(s, group[0], group[1], 0)) {
        if (VELOFLUX_WINDOWS.has(lowerWord(toks[a]))) continue;
        keys.add(stripParens(compactText(toks, a, b)));
      }
    }
    const window = q.groupWindows[0];
    for (const [a, b] of q.select.items) {
      if (!isPlainReference(q, a, b)) continue;
      if (keys.has(stripParens(compactText(toks, a, b)))) continue;
      const shown = spacedText(toks, a, b);
      out.error(
        `SELECT expression '${shown}' must be an aggregate or appear in GROUP BY; add it to GROUP BY (e.g. GROUP BY ${shown}${window ? `, ${spacedText(toks, window.index, window.close + 1)}` : ''}) or aggregate it, e.g. last_row(${shown})`,
      );
    }
  },
};

/** A column, `stream.column`, or a struct/list access on one, optionally parenthesized. */
function isPlainReference(q: VelofluxQuery, a: number, b: number): boolean {
  const { toks, s } = q;
  let sawName = false;
  for (let j = a; j < b; j++) {
    const t = toks[j];
    if (t.kind === 'word' || t.kind === 'quoted') {
      if (HARD_KEYWORDS.has(t.text.toLowerCase()) && t.kind === 'word') return false;
      if (isSymbol(toks[j + 1], '(')) return false;
      sawName = true;
    } else if (t.kind === 'number') {
      if (!(s.depth[j] ?? 0)) return false;
    } else if (!['.', '->', '(', ')', '[', ']'].some((symbol) => isSymbol(t, symbol))) {
      return false;
    }
  }
  return sawName;
}

function stripParens(text: string): string {
  let out = text;
  while (out.startsWith('(') && out.endsWith(')')) out = out.slice(1, -1);
  return out;
}
