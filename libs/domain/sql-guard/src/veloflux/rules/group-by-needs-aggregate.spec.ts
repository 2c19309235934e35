import { contractGrounding, errorsOf } from '../../__fixtures__/rule-harness';
import { groupByNeedsAggregate } from './group-by-needs-aggregate';

describe('group-by-needs-aggregate', () => {
  it('refuses GROUP BY keys without an aggregate or a window', () => {
    expect(errorsOf(groupByNeedsAggregate, 'SELECT device_id FROM sensor_stream GROUP BY device_id')[0]).toMatch(
      /^GROUP BY without aggregate functions is not supported by veloFlux/,
    );
  });

  it('accepts an aggregate, or a window alone; and stays silent when the catalog has no kinds', () => {
    expect(errorsOf(groupByNeedsAggregate, 'SELECT device_id, count(*) FROM sensor_stream GROUP BY device_id')).toEqual(
      [],
    );
    expect(
      errorsOf(groupByNeedsAggregate, "SELECT device_id FROM sensor_stream GROUP BY tumblingwindow('ss', 10)"),
    ).toEqual([]);
    const plain = contractGrounding('sensor_stream', { functions: [{ name: 'count' }] });
    expect(errorsOf(groupByNeedsAggregate, 'SELECT device_id FROM sensor_stream GROUP BY device_id', plain)).toEqual(
      [],
    );
  });
});
