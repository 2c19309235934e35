import { closeMatches, listNames } from '../../suggest';
import type { VelofluxRule } from '../rule';
import { quoted } from '../wording';

/**
 * `a->b[0]->c` after a column: fields that exist, `->` only on structs, no negative list index
 * (element_at counts from the end), and parentheses when an operator follows, because veloFlux
 * reads everything after `->` as the field.
 */
export const structAccess: VelofluxRule = {
  id: 'struct-access',
  check(q, out) {
    for (const ref of q.refs) {
      if (ref.kind !== 'column') continue;
      for (const fact of ref.chain) {
        switch (fact.kind) {
          case 'arrow-without-field':
            out.error(
              `'->' must be followed by a field name: write ${fact.path}->field (not a string or number after ->)`,
              fact.at,
            );
            break;
          case 'unknown-field': {
            const caseMatch = fact.fields.find((x) => x.toLowerCase() === fact.field.toLowerCase());
            const close = caseMatch ? [caseMatch] : closeMatches(fact.field, fact.fields);
            out.error(
              `unknown field '${fact.field}' in struct '${fact.path}'${close.length ? `; did you mean ${close.map(quoted).join(' or ')}?` : ''}; available fields: ${listNames(fact.fields)}`,
              fact.at,
            );
            break;
          }
          case 'not-a-struct':
            out.error(
              `'${fact.path}' is a ${fact.type}, not a struct, so '${fact.path}->${fact.field}' has no field to read`,
              fact.at,
            );
            break;
          case 'negative-index':
            out.error(
              `negative list index in '${fact.path}[${fact.index}]' is rejected by veloFlux; use element_at(${fact.path}, ${fact.index}) to count from the end`,
              fact.at,
            );
            break;
          case 'unparenthesized':
            out.error(
              `struct access '${fact.path}' must be parenthesized when followed by '${fact.operator}': veloFlux reads everything after -> as the field, so write (${fact.path}) ${fact.operator} …`,
              fact.at,
            );
            break;
        }
      }
    }
  },
};
