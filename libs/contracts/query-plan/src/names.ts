/** What a column's `data_type` says, across targets (DuckDB, PostgreSQL, veloFlux spellings). */
export type ValueClass = 'number' | 'text' | 'time' | 'boolean' | 'struct' | 'list' | 'other';

/**
 * One classifier for every target's type names: DuckDB (`DOUBLE`, `BIGINT`, `VARCHAR`,
 * `TIMESTAMP`; the adapter lowercases them), PostgreSQL's `format_type` (`double precision`,
 * `integer`, `text`, `timestamp without time zone`, `numeric(10,2)`) and the Manager's stream
 * describes (`float64`, `int64`, `string`, `bool`, `struct`, `list`, `timestamp`). Arrays are
 * tested first: `double[]` is a list, not a number.
 */
export function classifyType(dataType: string): ValueClass {
  const t = dataType.trim().toLowerCase();
  if (/^(list|array)\b|\[\d*\]$/.test(t)) return 'list';
  if (/^(struct|row|record)\b/.test(t)) return 'struct';
  if (/^(tinyint|smallint|integer|int|bigint|hugeint|uhugeint|ubigint|uinteger|usmallint|utinyint|double|float|real|decimal|numeric|int\d+|uint\d+|float\d+|double precision|serial|bigserial|smallserial)\b/.test(t)) return 'number';
  if (/^(varchar|text|string|char|character|bpchar|uuid|enum|name|citext)\b/.test(t)) return 'text';
  if (/^(timestamp|date|datetime|timestamptz|time)\b/.test(t)) return 'time';
  if (/^(bool|boolean)\b/.test(t)) return 'boolean';
  return 'other';
} // prettier-ignore

/** A few close names (edit distance, shared prefix or containment), best first. */
export function closestNames(wanted: string, names: readonly string[], max = 3): string[] {
  const w = wanted.toLowerCase();
  const distance = (a: string, b: string): number => {
    const row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      let prev = row[0];
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const next = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = row[j];
        row[j] = next;
      }
    }
    return row[b.length];
  };
  return [...new Set(names)]
    .map((n) => {
      const l = n.toLowerCase();
      const contains = l.includes(w) || w.includes(l);
      // An abbreviation (`qty` for quantity, `cust_id` for customer_id): same first letter, every
      // letter in order.
      const abbreviates = w.length >= 3 && w[0] === l[0] && isSubsequence(w, l);
      return { n, d: contains ? 0.5 : Math.min(distance(w, l), abbreviates ? 1.5 : Infinity) };
    })
    .filter((x) => x.d <= Math.max(2, Math.floor(w.length / 3)))
    .sort((a, b) => a.d - b.d)
    .slice(0, max)
    .map((x) => x.n);
}

function isSubsequence(short: string, long: string): boolean {
  let i = 0;
  for (const ch of long) if (ch === short[i]) i += 1;
  return i === short.length;
}

/** `; did you mean a or b?` when something is close, else the full list (short catalogs help more than nothing). */
export function suggestion(wanted: string, names: readonly string[], listLabel: string): string {
  const near = closestNames(wanted, names);
  if (near.length) return `; did you mean ${near.join(' or ')}?`;
  return names.length ? `; ${listLabel} ${[...new Set(names)].join(', ')}` : '';
}
