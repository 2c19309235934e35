import { joinKeyOf } from './join-key';
import { join, termScore } from './lookup';
import type { ReadingRule } from './state';

/** Every term that names something outside the source pulls in the table that has it, when a join key exists. */
export const joins: ReadingRule = {
  name: 'joins',
  apply(s) {
    const source = s.source ?? '';
    for (const t of s.links.terms) {
      if (termScore(t, source) > 0 || t.negated) continue;
      const tables = [...new Set([...t.columns.map((c) => c.table), ...t.values.map((v) => v.table)])];
      const joinable = tables
        .map((table) => ({ table, score: termScore(t, table) }))
        .sort((a, b) => b.score - a.score)
        .find((x) => joinKeyOf(s.schema.tables, source, x.table, s.schema.keys));
      if (joinable && (t.columns.length || t.values.length)) join(s, joinable.table);
    }
  },
};
