import { parseQueryPlan } from '@nl2p/query-plan';
import { readingCorpus, type Example } from '../testing/corpus';
import { planText } from '../testing/plan-text';
import type { LinkSchema } from '../types';

/** [SELECT, WHERE, the EXCEPT as `except SELECT WHERE`, a doubt about the negation]. */
type Said = [select: string | null, where: string | null, except: string | null, doubt: string | null];

function driverSchema(streaming = false): LinkSchema {
  return {
    streaming,
    values: { driver: { party: ['Dem', 'Rep'] } },
    tables: {
      driver: [
        { name: 'driver_id', data_type: 'INTEGER' },
        { name: 'name', data_type: 'VARCHAR' },
        { name: 'home_city', data_type: 'VARCHAR' },
        { name: 'age', data_type: 'INTEGER' },
        { name: 'party', data_type: 'VARCHAR' },
      ],
    },
    keys: { driver: { primaryKey: ['driver_id'] } },
  };
}

describe('except-rows', () => {
  const on = driverSchema();
  const EXAMPLES: Example<Said>[] = [
    // The rows said absent are the source's own: the cities of old drivers are taken away.
    {
      say: 'Show all home cities except for those having a driver older than 40.',
      on,
      means: ['home_city', '', 'except home_city WHERE age > 40', null],
    },
    {
      say: 'home cities that do not have any driver younger than 30',
      on,
      means: ['home_city', '', 'except home_city WHERE age < 30', null],
    },
    // Nothing said after the noun: no EXCEPT, and the negation is a doubt, never dropped.
    {
      say: 'home cities that do not have a driver',
      on,
      means: ['home_city', '', null, '"driver" is said absent, but the answer reads driver rows'],
    },
    // A stream runs no set operation: said, not dropped.
    {
      say: 'home cities except for those having a driver older than 40',
      on: driverSchema(true),
      means: ['home_city', 'age > 40', null, '"driver" takes rows away from the answer (EXCEPT), which a stream cannot run'],
    },
  ]; // prettier-ignore
  readingCorpus(EXAMPLES, (p, plan): Said => {
    const op = p.plan?.set_operations?.find((o) => o.op === 'except');
    const taken = op ? planText(parseQueryPlan(op.plan)) : null;
    return [
      plan?.select ?? null,
      plan?.where ?? null,
      taken ? `except ${taken.select} WHERE ${taken.where}` : null,
      p.doubts.find((d) => d.includes('absent') || d.includes('EXCEPT')) ?? null,
    ];
  });
});
