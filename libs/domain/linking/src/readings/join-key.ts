import { findJoinPath, type KeyedTables } from '@nl2p/query-plan';
import type { LinkSchema } from '../types';

/** The schema's tables with the keys they declare, as join paths are found over. */
export function keyedTables(schema: Pick<LinkSchema, 'tables' | 'keys'>): KeyedTables {
  return Object.fromEntries(
    Object.entries(schema.tables).map(([name, columns]) => [name, { columns, ...(schema.keys?.[name] ?? {}) }]),
  );
}

/**
 * The key two tables join on directly: a declared foreign key, else an inferred one (`*_id` to
 * the table that owns it: `sales.car_id = cars.id`, never `sales.id = cars.id`, and two tables
 * that merely share `customer_id` are not joined to each other). Null when they join only
 * through another table, or not at all. Single-column keys only.
 */
export function joinKeyOf(
  tables: Readonly<Record<string, readonly { name: string; data_type?: string }[]>>,
  left: string,
  right: string,
  keys?: LinkSchema['keys'],
): { left: string; right: string } | null {
  const schema = {
    tables: Object.fromEntries(
      Object.entries(tables).map(([t, cs]) => [t, cs.map((c) => ({ name: c.name, data_type: c.data_type ?? '' }))]),
    ),
    keys,
  };
  const path = findJoinPath(keyedTables(schema), left, [right]);
  const on = path?.joins.length === 1 ? path.joins[0]?.on : undefined;
  const pair = on?.length === 1 ? on[0] : undefined;
  return pair ? { left: pair.left.column, right: pair.right.column } : null;
}
