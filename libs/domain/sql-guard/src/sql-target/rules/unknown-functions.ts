import { SQL_SYNTAX_FUNCTIONS } from '../../keywords';
import { closeMatches } from '../../suggest';
import type { SqlTargetRule } from '../rule';

/** Every function called is in the database's catalog (when one is given); each name once. */
export const unknownFunctions: SqlTargetRule = {
  id: 'unknown-functions',
  check(q, out) {
    const names = new Set<string>();
    for (const f of q.g.functions) for (const name of [f.name, ...(f.aliases ?? [])]) names.add(name.toLowerCase());
    if (names.size === 0) return;
    for (const call of q.calls) {
      if (SQL_SYNTAX_FUNCTIONS.has(call.lower) || names.has(call.lower)) continue;
      const close = closeMatches(call.lower, names);
      out.error(
        `unknown function '${call.text}'${close.length ? `; did you mean ${close.map((c) => `${c}()`).join(' or ')}?` : `; it is not a ${q.dialect.label} function in the catalog`}`,
        call.index,
      );
    }
  },
};
