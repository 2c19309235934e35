import { ownKey, type ColumnInfo, type TableInfo } from '../schema-index';
import { singular } from '../text';
import type { TermLink } from '../types';
import { isTableMention, ref, resolve, term } from './lookup';
import { isGrouped, type ReadingRule, type ReadingState, type Resolved } from './state';

/**
 * `the ratio of capacity to range for each aircraft code`, `population per area for each state`:
 * said per row of the source (nothing is computed per group), the rows are shown with what names
 * each of them — the column said (`aircraft code`), or for the table itself its declared key, its
 * own id, or the name column named after it (`state_name` of `state`). Without one, nothing is
 * added and the word stays unused (a doubt).
 */
const PER_ROW_CUES = new Set(['per', 'each', 'every', 'for each', 'for every', 'in each', 'in every', 'across']);

export const rowKeys: ReadingRule = {
  name: 'row-keys',
  apply(s) {
    if (s.aggregates.length || isGrouped(s) || !s.select.length || s.distinct) return;
    const shown = new Set(s.select.map((p) => (p.kind === 'value' ? JSON.stringify(p.expr) : '')));
    const keys: Resolved[] = [];
    for (const g of s.links.groups) {
      // Said per row (`for each order`), not of which rows (`orders whose …`, `which orders`).
      if (!PER_ROW_CUES.has(g.cue)) continue;
      const t = term(s, g.term);
      const key = t && rowKeyOf(s, t);
      if (key && !keys.some((k) => k.info.label === key.info.label)) keys.push(key);
    }
    const values = keys
      .map((k) => ({ kind: 'value' as const, expr: { kind: 'column' as const, ref: ref(s, k) }, alias: null }))
      .filter((p) => !shown.has(JSON.stringify(p.expr)));
    s.select.unshift(...values);
  },
};

/** What names each row of the source, when `t` says the source's rows (a column of it, or the table). */
function rowKeyOf(s: ReadingState, t: TermLink): Resolved | null {
  const src = s.source ? s.index.table(s.source) : undefined;
  if (!src) return null;
  if (isTableMention(s, t) === src.name) {
    const info = declaredKey(s, src) ?? ownKey(src, singular) ?? namedAfter(src);
    return info ? { table: src.name, info, score: 1 } : null;
  }
  const r = resolve(s, t);
  return r && r.table === src.name && isRowKey(s, src, r.info) ? r : null;
}

/** A column said per row names the rows only when it is their key (`for each course ID`), not a measure. */
function isRowKey(s: ReadingState, src: TableInfo, c: ColumnInfo): boolean {
  const key = declaredKey(s, src) ?? ownKey(src, singular) ?? namedAfter(src);
  return key?.label === c.label;
}

function declaredKey(s: ReadingState, src: TableInfo): ColumnInfo | undefined {
  const pk = s.schema.keys?.[src.name]?.primaryKey ?? [];
  return pk.length === 1 ? src.columns.find((c) => c.column === pk[0] && !c.path.length) : undefined;
}

/** `state_name` of `state`: a text name column whose other words are the table's name. */
function namedAfter(src: TableInfo): ColumnInfo | undefined {
  const tableWords = new Set(src.readings.flatMap((r) => r.words).map(singular));
  return src.columns.find((c) => {
    const words = (c.readings[0]?.words ?? []).map(singular);
    return c.text && words.length >= 2 && words.at(-1) === 'name' && words.slice(0, -1).every((w) => tableWords.has(w));
  });
}
