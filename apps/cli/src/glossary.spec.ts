import { parseCommand } from './commands';
import { DEFINE_USAGE, parseDefinition } from './glossary';

describe('a definition typed at the prompt', () => {
  it.each([
    [
      'revenue = table: orders, expr: quantity * unit_price',
      'revenue',
      { table: 'orders', expr: 'quantity * unit_price' },
    ],
    [
      'hot = table: sensor_readings condition: temperature > 30',
      'hot',
      { table: 'sensor_readings', condition: 'temperature > 30' },
    ],
    // A condition may hold commas: a field runs to the next field's label.
    [
      "EU = table: customers, condition: country in ('FR', 'DE')",
      'EU',
      { table: 'customers', condition: "country in ('FR', 'DE')" },
    ],
    [
      'shipped ones = table: orders, column: status, value: shipped',
      'shipped ones',
      { table: 'orders', column: 'status', value: 'shipped' },
    ],
    ['clients = table: customers', 'clients', { table: 'customers' }],
  ])('%s', (text, term, means) => {
    expect(parseDefinition(text)).toEqual({ term, means });
  });

  it.each([
    ['revenue', DEFINE_USAGE],
    ['= table: orders', DEFINE_USAGE],
    [
      'revenue = quantity * unit_price',
      `say what 'revenue' means with the glossary file's fields (table, column, value, expr, condition): ${DEFINE_USAGE}`,
    ],
    ['revenue = expr: quantity * unit_price', `a meaning names its table: ${DEFINE_USAGE}`],
    ['revenue = table: orders, expr:', `'expr' needs a value: ${DEFINE_USAGE}`],
  ])('refuses %s with what to write', (text, hint) => {
    expect(parseDefinition(text)).toBe(hint);
  });

  it('is what /define, /forget and /glossary read', () => {
    expect(parseCommand('/define  shipped ones = table: orders, column: status, value: shipped')).toEqual({
      ok: true,
      command: {
        name: 'glossary',
        action: {
          name: 'define',
          term: 'shipped ones',
          means: { table: 'orders', column: 'status', value: 'shipped' },
        },
      },
    });
    expect(parseCommand('/forget shipped ones')).toEqual({
      ok: true,
      command: { name: 'glossary', action: { name: 'forget', term: 'shipped ones' } },
    });
    expect(parseCommand('/glossary')).toEqual({ ok: true, command: { name: 'glossary', action: { name: 'list' } } });
    expect(parseCommand('/glossary export team.yaml')).toEqual({
      ok: true,
      command: { name: 'glossary', action: { name: 'export', file: 'team.yaml' } },
    });
    expect(parseCommand('/glossary import')).toEqual({ ok: false, hint: 'usage: /glossary import <file>' });
    expect(parseCommand('/forget')).toEqual({ ok: false, hint: 'usage: /forget <term>' });
  });
});
