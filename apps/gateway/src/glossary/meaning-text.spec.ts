import { conditionText } from '@nl2p/envelope';
import type { Condition } from '@nl2p/query-plan';
import { parseCondition } from './meaning-text';

const col = (column: string, table?: string) => ({
  kind: 'column' as const,
  ref: table ? { table, column } : { column },
});

describe('a glossary condition', () => {
  it.each<[string, Condition]>([
    ['temperature > 30', { kind: 'compare', left: col('temperature'), op: '>', value: { kind: 'number', value: 30 } }],
    [
      'temperature >= -5.5',
      { kind: 'compare', left: col('temperature'), op: '>=', value: { kind: 'number', value: -5.5 } },
    ],
    [
      "status <> 'closed'",
      { kind: 'compare', left: col('status'), op: '!=', value: { kind: 'string', value: 'closed' } },
    ],
    ["name = 'O''Brien'", { kind: 'compare', left: col('name'), op: '=', value: { kind: 'string', value: "O'Brien" } }],
    ['ok = false', { kind: 'compare', left: col('ok'), op: '=', value: { kind: 'boolean', value: false } }],
    [
      "country in ('FR','DE')",
      {
        kind: 'in',
        column: { column: 'country' },
        values: [
          { kind: 'string', value: 'FR' },
          { kind: 'string', value: 'DE' },
        ],
      },
    ],
    [
      "customers.country NOT IN ('FR')",
      {
        kind: 'in',
        column: { table: 'customers', column: 'country' },
        values: [{ kind: 'string', value: 'FR' }],
        negated: true,
      },
    ],
    ['email is not null', { kind: 'null', column: { column: 'email' }, negated: true }],
    [
      "status = 'shipped' or status = 'delivered' and quantity > 2",
      {
        kind: 'or',
        conditions: [
          { kind: 'compare', left: col('status'), op: '=', value: { kind: 'string', value: 'shipped' } },
          {
            kind: 'and',
            conditions: [
              { kind: 'compare', left: col('status'), op: '=', value: { kind: 'string', value: 'delivered' } },
              { kind: 'compare', left: col('quantity'), op: '>', value: { kind: 'number', value: 2 } },
            ],
          },
        ],
      },
    ],
    [
      "not (segment = 'retail')",
      {
        kind: 'not',
        condition: { kind: 'compare', left: col('segment'), op: '=', value: { kind: 'string', value: 'retail' } },
      },
    ],
  ])('%s is read as the plan types it, and written back to the same', (text, condition) => {
    const parsed = parseCondition(text);
    expect(parsed).toEqual(condition);
    expect(parseCondition(conditionText(parsed) ?? '')).toEqual(condition);
  });

  it.each([
    ['temperature is warm', /is followed by null or not null/],
    ["country in 'FR'", /`in` is followed by a bracketed list/],
    ["country in ('FR'", /has no '\)'/],
    ['temperature > ', /a value is missing/],
    ['> 30', /'>' where a column belongs/],
    ["status = 'a' status = 'b'", /'status' after a complete condition/],
  ])('refuses %s, saying why', (text, why) => {
    expect(() => parseCondition(text)).toThrow(why);
  });
});
