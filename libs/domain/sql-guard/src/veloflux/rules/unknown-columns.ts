import { closeMatches, listNames } from '../../suggest';
import { nameOf } from '../../structure';
import type { VelofluxRule } from '../rule';
import { quoted } from '../wording';

/**
 * Every name that is not a column of the stream, the stream, an alias or a keyword: with the
 * near misses (case first: column names are case-sensitive) and, for `"name"`, the reminder that
 * double quotes delimit identifiers. Each name once, however often it occurs.
 */
export const unknownColumns: VelofluxRule = {
  id: 'unknown-columns',
  check(q, out) {
    const columns = q.columns;
    if (!columns) return;
    const names = columns.map((c) => c.name);
    const reported = new Set<string>();
    for (const ref of q.refs) {
      if (ref.kind !== 'unknown-column') continue;
      const t = ref.token;
      const name = nameOf(t);
      // Suggestions cost an edit distance per column; a name is reported once however often it occurs.
      const key = `${t.kind}:${name}`;
      if (reported.has(key)) continue;
      reported.add(key);
      const caseMatch = names.find((c) => c.toLowerCase() === name.toLowerCase());
      let hint = '';
      if (caseMatch) {
        hint = `; did you mean '${caseMatch}'? (column names are case-sensitive)`;
      } else {
        const close = closeMatches(name, names);
        if (close.length) hint = `; did you mean ${close.map(quoted).join(' or ')}?`;
      }
      const quoteHint =
        t.kind === 'quoted' && t.quote === '"'
          ? ` ("${name}" is a column name in veloFlux because double quotes delimit identifiers; write a string literal in single quotes: '${name}')`
          : '';
      const where = q.streamName ?? q.g.stream;
      out.error(
        `unknown column '${name}'${where ? ` in stream '${where}'` : ''}${quoteHint}${hint}; available columns: ${listNames(names)}`,
        ref.index,
      );
    }
  },
};
