import { contractGrounding, errorsOf } from '../../__fixtures__/rule-harness';
import { aggregatesInWhere } from './aggregates-in-where';

describe('aggregates-in-where', () => {
  it('moves an aggregate condition to HAVING', () => {
    expect(
      errorsOf(
        aggregatesInWhere,
        "SELECT device_id FROM sensor_stream WHERE avg(temperature) > 30 GROUP BY tumblingwindow('ss', 10)",
      ),
    ).toEqual([
      'aggregate avg() cannot be called in WHERE (the engine answers Unknown function); put the condition in HAVING, with a window in GROUP BY',
    ]);
  });

  it('accepts it in HAVING, and knows aggregates only from the catalog', () => {
    expect(
      errorsOf(
        aggregatesInWhere,
        "SELECT avg(temperature) FROM sensor_stream GROUP BY tumblingwindow('ss', 10) HAVING avg(temperature) > 30",
      ),
    ).toEqual([]);
    const plain = contractGrounding('sensor_stream', { functions: [{ name: 'avg' }] });
    expect(
      errorsOf(aggregatesInWhere, 'SELECT device_id FROM sensor_stream WHERE avg(temperature) > 30', plain),
    ).toEqual([]);
  });
});
