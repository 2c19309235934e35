import { doubt, isTableMention, resolve } from './lookup';
import type { ReadingRule } from './state';

/**
 * `"plants" is read as the table power_stations`: each word the plan relies on that met its name
 * by meaning, not spelling, is a reading shown with the answer; a loose meaning (a broader or
 * narrower word) is a doubt. A value said as the data spells it (`books`) is read by spelling,
 * whatever its column words mean.
 */
export const meaning: ReadingRule = {
  name: 'meaning',
  apply(s) {
    const out: string[] = [];
    for (const t of s.links.terms) {
      const table = isTableMention(s, t);
      if (table && (s.used.has(t.id) || table === s.source)) {
        const how = t.tables[0]?.byMeaning;
        if (how) out.push(`"${t.text}" is read as the table ${table}`);
        if (how === 'loosely') doubt(s, `"${t.text}" only loosely means ${table}`);
        continue;
      }
      if (!s.used.has(t.id) || t.values.length) continue;
      const r = resolve(s, t);
      if (!r) continue;
      const c = t.columns.find((x) => x.table === r.table && x.label === r.info.label);
      if (c?.byMeaning) out.push(`"${t.text}" is read as ${r.info.label}`);
      if (c?.byMeaning === 'loosely') doubt(s, `"${t.text}" only loosely means ${r.info.label}`);
    }
    s.readings.push(...out);
  },
};
