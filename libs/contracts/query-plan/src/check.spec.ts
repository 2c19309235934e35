import type { Column } from '@nl2p/envelope';
import { checkPlan, classifyType, closestNames } from './check';
import { QueryPlan, type QueryPlanInput } from './plan';

const c = (name: string, data_type: string, fields?: Column[]): Column => ({
  name,
  data_type,
  ...(fields ? { fields } : {}),
});
// Each target's own type spellings: DuckDB (lowercased by its adapter), PostgreSQL format_type,
// and the Manager's stream describes (recorded: stream_describe_vehicle).
const TABLES: Record<string, Column[]> = {
  orders: [c('order_id', 'integer'), c('customer_id', 'integer'), c('status', 'varchar'), c('quantity', 'integer'), c('unit_price', 'numeric(10,2)'), c('ordered_at', 'timestamp without time zone')],
  customers: [c('customer_id', 'INTEGER'), c('country', 'text'), c('name', 'text')],
  sensor_readings: [c('ts', 'TIMESTAMP'), c('device_id', 'VARCHAR'), c('temperature', 'DOUBLE'), c('humidity', 'DOUBLE')],
  vehicle: [c('vin', 'string'), c('speed', 'int64'), c('ok', 'bool'), c('location', 'struct', [c('lat', 'float64'), c('lon', 'float64')])],
}; // prettier-ignore
const check = (p: QueryPlanInput) => checkPlan(QueryPlan.parse(p), TABLES);
const col = (column: string, table?: string) => ({
  kind: 'column' as const,
  ref: { column, ...(table ? { table } : {}) },
});
const num = (value: number) => ({ kind: 'number' as const, value });
const errorsOf = (p: QueryPlanInput) => {
  const r = check(p);
  return r.ok ? [] : r.errors;
};
const JOIN_CUSTOMERS = {
  table: 'customers',
  on: [{ left: { column: 'customer_id' }, right: { column: 'customer_id' } }],
};

describe('checkPlan: names', () => {
  it('resolves each column to its table, a joined one when only it has the column, and fills the join keys', () => {
    const r = check({
      source: 'orders',
      joins: [JOIN_CUSTOMERS],
      select: [{ kind: 'value', expr: col('country') }, { kind: 'aggregate', aggregate: { fn: 'sum', arg: col('quantity') } }],
    }); // prettier-ignore
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.plan.select[0]).toMatchObject({ expr: { ref: { table: 'customers', column: 'country' } } });
    expect(r.plan.select[1]).toMatchObject({ aggregate: { arg: { ref: { table: 'orders', column: 'quantity' } } } });
    // The join's right side defaults to the joined table, its left side to the source.
    expect(r.plan.joins[0].on).toEqual([
      { left: { table: 'orders', column: 'customer_id' }, right: { table: 'customers', column: 'customer_id' } },
    ]);
  });

  it('prefers the source when the source and a joined table share a column name', () => {
    const r = check({
      source: 'orders',
      joins: [JOIN_CUSTOMERS],
      select: [{ kind: 'value', expr: col('customer_id') }],
    });
    expect(r).toMatchObject({ ok: true, plan: { select: [{ expr: { ref: { table: 'orders' } } }] } });
  });

  it('swaps a join condition written joined-table first', () => {
    const r = check({
      source: 'orders',
      joins: [{ table: 'customers', on: [{ left: { table: 'customers', column: 'customer_id' }, right: { table: 'orders', column: 'customer_id' } }] }],
    }); // prettier-ignore
    expect(r).toMatchObject({
      ok: true,
      plan: { joins: [{ on: [{ left: { table: 'orders' }, right: { table: 'customers' } }] }] },
    });
  });

  it('names the closest real names for a missing table, column, joined table, join key or struct field', () => {
    expect(errorsOf({ source: 'order' })).toEqual(["no table or stream 'order'; did you mean orders?"]);
    expect(errorsOf({ source: 'sensor_readings', select: [{ kind: 'value', expr: col('temp') }] })).toEqual([
      "no column 'temp' in sensor_readings; did you mean temperature?",
    ]);
    expect(errorsOf({ source: 'orders', joins: [{ ...JOIN_CUSTOMERS, table: 'customer' }] })).toEqual([
      "cannot join 'customer': no such table; did you mean customers?",
    ]);
    expect(
      errorsOf({ source: 'orders', joins: [{ table: 'customers', on: [{ left: { column: 'customer_id' }, right: { column: 'cust_id' } }] }] }),
    ).toEqual(["no column 'cust_id' in customers; did you mean customer_id?"]);
    expect(errorsOf({ source: 'vehicle', select: [{ kind: 'value', expr: { kind: 'column', ref: { column: 'location', path: ['lan'] } } }] })).toEqual([
      "column 'location' has no field 'lan'; did you mean lat or lon?",
    ]);
    expect(errorsOf({ source: 'vehicle', select: [{ kind: 'value', expr: { kind: 'column', ref: { column: 'speed', path: ['x'] } } }] })).toEqual([
      "column 'speed' has no field 'x' (it is int64, not a struct)",
    ]);
  }); // prettier-ignore

  it('lists every column when nothing is close, and refuses a table that is not joined', () => {
    expect(errorsOf({ source: 'customers', select: [{ kind: 'value', expr: col('zzzzzz') }] })).toEqual([
      "no column 'zzzzzz' in customers; its columns are customer_id, country, name",
    ]);
    expect(errorsOf({ source: 'orders', select: [{ kind: 'value', expr: col('country', 'customers') }] })).toEqual([
      "column customers.country: 'customers' is not joined; the query reads orders",
    ]);
  });

  it('refuses an ambiguous column that only joined tables have', () => {
    const tables = {
      ...TABLES,
      a: [c('id', 'integer')],
      b: [c('id', 'integer'), c('x', 'integer')],
      c: [c('x', 'integer')],
    };
    const r = checkPlan(
      QueryPlan.parse({
        source: 'a',
        joins: [{ table: 'b', on: [{ left: { column: 'id' }, right: { column: 'id' } }] }, { table: 'c', on: [{ left: { table: 'b', column: 'x' }, right: { column: 'x' } }] }],
        select: [{ kind: 'value', expr: col('x') }],
      }),
      tables,
    ); // prettier-ignore
    expect(r).toEqual({ ok: false, errors: ["column 'x' is in b and c; say which table"] });
  });
});

describe('checkPlan: types', () => {
  it('allows sum and avg over numbers only', () => {
    expect(errorsOf({ source: 'orders', select: [{ kind: 'aggregate', aggregate: { fn: 'sum', arg: col('status') } }] })).toEqual([
      "sum() needs a numeric value; 'status' is text (count(), min() and max() work on any column)",
    ]);
    expect(errorsOf({ source: 'vehicle', select: [{ kind: 'aggregate', aggregate: { fn: 'avg', arg: col('ok') } }] })).toHaveLength(1);
    expect(errorsOf({ source: 'orders', select: [{ kind: 'aggregate', aggregate: { fn: 'avg', arg: { kind: 'arith', op: '*', left: col('quantity'), right: col('unit_price') } } }] })).toEqual([]);
    expect(errorsOf({ source: 'orders', select: [{ kind: 'aggregate', aggregate: { fn: 'max', arg: col('status') } }] })).toEqual([]);
    expect(errorsOf({ source: 'orders', select: [{ kind: 'aggregate', aggregate: { fn: 'sum' } }] })).toEqual(['sum() needs a column to aggregate']);
  }); // prettier-ignore

  it('refuses arithmetic over text and comparisons with a literal of the wrong kind', () => {
    expect(errorsOf({ source: 'orders', select: [{ kind: 'value', expr: { kind: 'arith', op: '+', left: col('status'), right: num(1) } }] })).toEqual([
      "'status' is text, not a number, so it cannot be used in arithmetic (status + 1)",
    ]);
    expect(errorsOf({ source: 'orders', where: { kind: 'compare', left: col('status'), op: '=', value: num(3) } })).toEqual([
      "'status' is text, so it cannot be compared with the number 3; compare it with a string",
    ]);
    expect(errorsOf({ source: 'orders', where: { kind: 'between', column: { column: 'quantity' }, low: { kind: 'timestamp', value: '2024-01-01' }, high: num(3) } })).toEqual([
      "'quantity' is number, so it cannot be compared with the timestamp '2024-01-01'; compare it with a number",
    ]);
    expect(errorsOf({ source: 'orders', where: { kind: 'text', column: { column: 'quantity' }, match: 'contains', value: '1' } })).toEqual([
      "'quantity' is number, not text, so it cannot be matched as text; compare it instead",
    ]);
    expect(errorsOf({ source: 'orders', select: [{ kind: 'value', expr: { kind: 'arith', op: '/', left: col('quantity'), right: num(0) } }] })).toEqual([
      "'quantity / 0' divides by zero",
    ]);
    // A quoted date against a timestamp column is fine on every SQL target.
    expect(errorsOf({ source: 'orders', where: { kind: 'compare', left: col('ordered_at'), op: '>=', value: { kind: 'string', value: '2024-01-01' } } })).toEqual([]);
  }); // prettier-ignore

  it('buckets only date or time columns, shown as dates only for days or longer', () => {
    expect(errorsOf({ source: 'orders', select: [{ kind: 'bucket' }], time_bucket: { column: { column: 'status' }, unit: 'day' } })).toEqual([
      "time buckets need a date or time column; 'status' is text; the time columns are ordered_at",
    ]);
    expect(errorsOf({ source: 'orders', select: [{ kind: 'bucket' }], time_bucket: { column: { column: 'ordered_at' }, unit: 'hour', as_date: true } })).toEqual([
      'a bucket of 1 hour(s) cannot be shown as a date; as_date needs a unit of a day or longer',
    ]);
    expect(errorsOf({ source: 'orders', select: [{ kind: 'bucket' }] })).toEqual([
      'the plan selects a time bucket but has no time_bucket to say which column and unit',
    ]);
  }); // prettier-ignore

  it('classifies the type spellings of every target', () => {
    expect(['DOUBLE', 'double precision', 'float64', 'Float64', 'int64', 'BIGINT', 'numeric(10,2)', 'decimal(10,2)', 'float32'].map(classifyType)).toEqual(Array(9).fill('number'));
    expect(['VARCHAR', 'text', 'string', 'String', 'character varying(20)'].map(classifyType)).toEqual(Array(5).fill('text'));
    expect(['TIMESTAMP', 'timestamp without time zone', 'timestamp with time zone', 'DATE', 'timestamp'].map(classifyType)).toEqual(Array(5).fill('time'));
    expect(['bool', 'boolean', 'Bool'].map(classifyType)).toEqual(['boolean', 'boolean', 'boolean']);
    // Arrays before numbers: a list of doubles is not a number.
    expect(['double[]', 'INTEGER[3]', 'list', 'struct', 'STRUCT(a INTEGER)', 'json'].map(classifyType)).toEqual(['list', 'list', 'list', 'struct', 'struct', 'other']);
  }); // prettier-ignore

  it('finds close names by edit distance and containment', () => {
    expect(closestNames('temp', ['temperature', 'humidity'])).toEqual(['temperature']);
    expect(closestNames('staus', ['status', 'quantity'])).toEqual(['status']);
    expect(closestNames('qty', ['quantity', 'status'])).toEqual(['quantity']);
    expect(closestNames('xyz', ['temperature'])).toEqual([]);
  });
});

describe('checkPlan: grouping and order', () => {
  it('adds plain columns shown beside aggregates to GROUP BY, once', () => {
    const r = check({
      source: 'orders',
      select: [{ kind: 'value', expr: col('status') }, { kind: 'value', expr: col('customer_id') }, { kind: 'aggregate', aggregate: { fn: 'count' } }],
      group_by: [{ column: 'status' }],
    }); // prettier-ignore
    expect(r).toMatchObject({ ok: true });
    if (r.ok)
      expect(r.plan.group_by).toEqual([
        { table: 'orders', column: 'status' },
        { table: 'orders', column: 'customer_id' },
      ]);
  });

  it('refuses a computed value or a sort key that is neither grouped nor aggregated', () => {
    expect(errorsOf({
      source: 'orders',
      select: [{ kind: 'value', expr: { kind: 'arith', op: '*', left: col('quantity'), right: col('unit_price') } }, { kind: 'aggregate', aggregate: { fn: 'count' } }],
    })).toEqual(["'quantity * unit_price' is shown beside aggregates or groups, but quantity, unit_price is neither aggregated nor grouped; aggregate it or add it to group_by"]);
    // ... but a computed value over group keys is fine.
    expect(errorsOf({
      source: 'orders',
      select: [{ kind: 'value', expr: { kind: 'arith', op: '*', left: col('quantity'), right: num(2) } }, { kind: 'aggregate', aggregate: { fn: 'count' } }],
      group_by: [{ column: 'quantity' }],
    })).toEqual([]);
    expect(errorsOf({
      source: 'orders',
      select: [{ kind: 'value', expr: col('status') }, { kind: 'aggregate', aggregate: { fn: 'count' } }],
      order_by: [{ key: { kind: 'value', expr: col('ordered_at') } }],
    })).toEqual(['ORDER BY ordered_at: with aggregates, sort by a group key or an aggregate; ordered_at is neither']);
  }); // prettier-ignore

  it('treats HAVING and aggregate sort keys as aggregation: plain columns are grouped, * is refused', () => {
    const having = { aggregate: { fn: 'count' as const }, op: '>' as const, value: 1 };
    expect(
      check({ source: 'orders', select: [{ kind: 'value', expr: col('status') }], having: [having] }),
    ).toMatchObject({
      ok: true,
      plan: { group_by: [{ column: 'status' }] },
    });
    expect(errorsOf({ source: 'orders', having: [having] })).toEqual([
      'the plan has HAVING but selects every column (*); list the group keys and aggregates to show',
    ]);
  });

  it('checks ORDER BY output positions and DISTINCT sort keys', () => {
    expect(errorsOf({ source: 'orders', select: [{ kind: 'value', expr: col('status') }], order_by: [{ key: { kind: 'output', index: 1 } }] })).toEqual([
      'ORDER BY output 2, but the plan selects only 1 column(s)',
    ]);
    expect(errorsOf({ source: 'orders', distinct: true, select: [{ kind: 'value', expr: col('status') }], order_by: [{ key: { kind: 'value', expr: col('quantity') } }] })).toEqual([
      'with distinct, ORDER BY quantity must be one of the selected columns',
    ]);
  }); // prettier-ignore

  it('checks the columns inside a state window and its partition', () => {
    expect(errorsOf({
      source: 'vehicle',
      select: [{ kind: 'aggregate', aggregate: { fn: 'max', arg: col('speed') } }],
      window: { kind: 'state', open: { kind: 'compare', left: col('sped'), op: '>', value: num(1) }, emit: { kind: 'null', column: { column: 'vin' } }, partition_by: [{ column: 'vim' }] },
    })).toEqual(["no column 'sped' in vehicle; did you mean speed?", "no column 'vim' in vehicle; did you mean vin?"]);
  }); // prettier-ignore

  it('refuses a time bucket and a window together', () => {
    expect(
      errorsOf({
        source: 'orders',
        select: [{ kind: 'bucket' }, { kind: 'aggregate', aggregate: { fn: 'count' } }],
        time_bucket: { column: { column: 'ordered_at' }, unit: 'day' },
        window: { kind: 'count', size: 10 },
      }),
    ).toEqual(['a plan has either a time bucket (SQL tables) or a window (streams), not both']);
  });
});

describe('checkPlan: elapsed time', () => {
  it('counts the time between two date or time columns, and refuses another kind of column', () => {
    const elapsed = (from: string, to: string) => ({ kind: 'elapsed' as const, unit: 'day' as const, from: { column: from }, to: { column: to } });
    expect(errorsOf({ source: 'orders', select: [{ kind: 'value', expr: elapsed('ordered_at', 'ordered_at') }] })).toEqual([]);
    expect(errorsOf({ source: 'orders', select: [{ kind: 'aggregate', aggregate: { fn: 'avg', arg: elapsed('ordered_at', 'status') } }] })).toEqual([
      "the time from ordered_at to status needs two date or time columns; 'status' is text",
    ]);
  }); // prettier-ignore
});

describe('checkPlan: measures (figures computed from aggregates)', () => {
  const count = (filter?: unknown) => ({
    kind: 'aggregate' as const,
    aggregate: { fn: 'count' as const },
    ...(filter ? { filter } : {}),
  });
  const shipped = { kind: 'compare', left: col('status'), op: '=', value: { kind: 'string', value: 'shipped' } };

  it('groups the plain columns shown beside a measure and resolves its filters like a WHERE', () => {
    const r = check({ source: 'orders', joins: [JOIN_CUSTOMERS], select: [{ kind: 'value', expr: col('country') }, { kind: 'measure', expr: { kind: 'arith', op: '/', left: count(shipped), right: count() } }] } as QueryPlanInput);
    if (!r.ok) throw new Error(r.errors.join('; '));
    expect(r.plan.group_by).toEqual([{ table: 'customers', column: 'country' }]);
    expect(r.plan.select[1]).toMatchObject({ kind: 'measure', expr: { left: { filter: { left: { ref: { table: 'orders', column: 'status' } } } } } });
  }); // prettier-ignore

  it('checks each aggregate and filter of a measure, and refuses one that aggregates nothing', () => {
    expect(errorsOf({ source: 'orders', select: [{ kind: 'measure', expr: { kind: 'arith', op: '/', left: { kind: 'aggregate', aggregate: { fn: 'sum', arg: col('status') } }, right: count({ kind: 'compare', left: col('stauts'), op: '=', value: { kind: 'string', value: 'x' } }) } }] } as QueryPlanInput)).toEqual([
      "sum() needs a numeric value; 'status' is text (count(), min() and max() work on any column)",
      "no column 'stauts' in orders; did you mean status?",
    ]);
    expect(errorsOf({ source: 'orders', select: [{ kind: 'measure', expr: { kind: 'arith', op: '*', left: num(100), right: num(2) } }] })).toEqual([
      "'100 * 2' computes nothing from the rows; a measure needs at least one aggregate (show a number as a value instead)",
    ]);
  }); // prettier-ignore

  it('refuses an average of all groups (averages do not add up)', () => {
    expect(errorsOf({ source: 'orders', select: [{ kind: 'value', expr: col('status') }, { kind: 'measure', expr: { kind: 'arith', op: '/', left: { kind: 'aggregate', aggregate: { fn: 'avg', arg: col('quantity') } }, right: { kind: 'aggregate', aggregate: { fn: 'avg', arg: col('quantity') }, all_groups: true } } }] })).toEqual([
      'avg(quantity) of all groups cannot be made of each group\'s (only count, sum, min and max add up); compute it per group',
    ]);
  }); // prettier-ignore

  it('refuses a filtered measure beside the rows holding each group\'s extreme', () => {
    expect(errorsOf({ source: 'orders', select: [{ kind: 'value', expr: col('customer_id') }, { kind: 'measure', expr: { kind: 'arith', op: '/', left: count(shipped), right: count() } }], extreme_per_group: { per: [{ column: 'customer_id' }], by: col('quantity'), extreme: 'max' } } as QueryPlanInput)).toEqual([
      "'count(*) of the rows filtered / count(*)' filters its aggregates, which cannot stand beside the rows holding each group's extreme; filter the rows (where) instead",
    ]);
  }); // prettier-ignore
});
