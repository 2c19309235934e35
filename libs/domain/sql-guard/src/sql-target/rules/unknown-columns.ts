import type { Column } from '@nl2p/envelope';
import { SOFT_KEYWORDS } from '../../keywords';
import type { Token } from '../../lexer';
import { nameOf } from '../../structure';
import { closeMatches, listNames } from '../../suggest';
import { SQL_SOFT_WORDS } from '../query';
import type { SqlTargetRule } from '../rule';

/**
 * Every name that can only be a column is one of the known tables' columns. A qualified name is
 * checked against its table's columns when that table is real and known; a bare name against the
 * union, since which table it comes from is the database's business. Names the query derives (CTE
 * and subquery columns, unaliased table functions) are left alone.
 */
export const unknownColumns: SqlTargetRule = {
  id: 'unknown-columns',
  check(q, out) {
    const { g } = q;
    const byTable = new Map<string, readonly Column[]>();
    for (const [table, cols] of Object.entries(g.columnsByTable ?? {})) byTable.set(table.toLowerCase(), cols);
    if (g.stream && g.columns.length > 0) byTable.set(g.stream.toLowerCase(), g.columns);
    const union: string[] = [];
    for (const cols of [g.columns, ...byTable.values()])
      for (const c of cols) if (!union.includes(c.name)) union.push(c.name);
    if (union.length === 0) return;
    const unionLower = new Set(union.map((c) => c.toLowerCase()));
    const knownLower = new Set([...g.streams, ...(g.stream ? [g.stream] : [])].map((x) => x.toLowerCase()));
    const called = new Set(q.calls.map((c) => c.lower));

    const reported = new Set<string>();
    const report = (t: Token, index: number, candidates: readonly string[], where: string): void => {
      const name = nameOf(t);
      if (reported.has(`${t.kind}:${name}${where}`)) return;
      reported.add(`${t.kind}:${name}${where}`);
      const close = closeMatches(name, candidates);
      const quoteHint =
        t.kind === 'quoted'
          ? ` ("${name}" is an identifier because double quotes delimit names; write a string literal in single quotes: '${name}')`
          : '';
      out.error(
        `unknown column '${name}'${where}${quoteHint}${close.length ? `; did you mean ${close.map((c) => `'${c}'`).join(' or ')}?` : ''}; available columns: ${listNames(candidates)}`,
        index,
      );
    };

    for (const ref of q.columnRefs) {
      const name = nameOf(ref.token);
      if (ref.kind === 'qualified') {
        // Only a real table's columns are known; a CTE or subquery alias has derived columns.
        if (!ref.source?.key) continue;
        const cols = byTable.get(ref.source.key);
        const names = cols ? cols.map((c) => c.name) : union;
        if (!names.some((c) => c.toLowerCase() === name.toLowerCase())) {
          report(ref.token, ref.index, names, cols ? ` in table '${ref.source.table}'` : '');
        }
        continue;
      }
      const lower = name.toLowerCase();
      if (unionLower.has(lower) || q.defined.has(lower) || q.sources.has(lower) || knownLower.has(lower)) continue;
      if (SOFT_KEYWORDS.has(lower) || SQL_SOFT_WORDS.has(lower)) continue;
      // A table function or an unaliased aggregate in a CTE/subquery names its column after itself.
      if (q.derivedSources && called.has(lower)) continue;
      report(ref.token, ref.index, union, '');
    }
  },
};
