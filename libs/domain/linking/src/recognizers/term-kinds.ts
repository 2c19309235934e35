import { isKeyColumn, isYesNoColumn, type SchemaIndex } from '../schema-index';
import type { TermLink } from '../types';

/** What kind of thing a term names, as several recognizers need to know. */

/** The term names a table at least as well as any column (`orders`, `vehicles`). */
export function namesTableFirst(t: TermLink): boolean {
  return t.tables.length > 0 && (t.tables[0]?.score ?? 0) >= (t.columns[0]?.score ?? 0);
}

/** A term that can be compared with a number: a numeric (or temporal) column that is not a key. */
export function measureLike(t: TermLink, index: SchemaIndex): boolean {
  if (namesTableFirst(t)) return false;
  // What the word names outright (`airline`: a text column), before what it is only part of (`alid`).
  const whole = t.columns.filter((c) => c.match !== 'partial');
  return (whole.length ? whole : t.columns).some((c) => {
    const info = index.table(c.table)?.columns.find((x) => x.label === c.label);
    // A key (`alid`: an airline's id) numbers rows; it is no measure.
    return !!info && (info.numeric || info.temporal) && !isKeyColumn(info);
  });
}

/** A term naming a yes/no column (and no table): `ok`, `is_active`. */
export function booleanColumn(t: TermLink, index: SchemaIndex): boolean {
  if (namesTableFirst(t)) return false;
  return t.columns.some((c) => isYesNoColumn(index.table(c.table)?.columns.find((x) => x.label === c.label)));
}
