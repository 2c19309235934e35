import { isTemporalType, looksTemporal } from '../schema-index';
import type { ColumnCandidate } from '../types';
import { doubt, TIE } from './lookup';
import type { ReadingRule, ReadingState, Resolved } from './state';

/**
 * The source's time column, when the request is about time (a range, a time grouping, an order on
 * time): one the request names (`pickup time`, `installed`), else the only (or first) temporal
 * one, with a doubt when there were several to choose from.
 */
export const timeColumn: ReadingRule = {
  name: 'time-column',
  apply(s) {
    const L = s.links;
    // Only a request about time has to say which time column it means.
    const needsTime =
      L.timeRanges.length > 0 ||
      L.timeGroups.length > 0 ||
      (L.weekDays?.length ?? 0) > 0 ||
      L.orders.some((o) => o.key && 'time' in o.key);
    s.timeColumn = needsTime ? sourceTimeColumn(s) : null;
  },
};

function sourceTimeColumn(s: ReadingState): Resolved | null {
  const src = s.source ? s.index.table(s.source) : undefined;
  if (!src) return null;
  const temporal = src.columns.filter((c) => isTemporalType(c.type));
  const candidates = temporal.length ? temporal : src.columns.filter(looksTemporal);
  // The time column a phrase names (`pickup time`, `installed`), unless it fits several equally.
  let named: ColumnCandidate | undefined;
  for (const t of s.links.terms) {
    const said = t.columns.filter((c) => c.table === src.name && candidates.some((x) => x.label === c.label));
    const top = said[0];
    if (!top) continue;
    const tied = said.filter((c) => top.score - c.score < TIE);
    if (tied.length > 1) {
      s.ambiguous.push({ phrase: t.text, candidates: tied.map((c) => c.label) });
      continue;
    }
    named ??= top;
  }
  const info = (named && candidates.find((x) => x.label === named.label)) ?? candidates[0];
  if (candidates.length > 1 && !named) doubt(s, `which time column: ${candidates.map((c) => c.label).join(', ')}`);
  return info ? { table: src.name, info, score: 1 } : null;
}
