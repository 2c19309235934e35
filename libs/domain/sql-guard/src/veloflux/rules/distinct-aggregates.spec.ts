import { errorsOf } from '../../__fixtures__/rule-harness';
import { distinctAggregates } from './distinct-aggregates';

describe('distinct-aggregates', () => {
  it('refuses count(DISTINCT x), which fails when the pipeline runs, and points at ndv()', () => {
    expect(
      errorsOf(
        distinctAggregates,
        "SELECT count(DISTINCT device_id) FROM sensor_stream GROUP BY tumblingwindow('ss', 10)",
      ),
    ).toEqual([
      'count(DISTINCT x) is accepted by veloFlux when the pipeline is created, but its aggregation fails when the pipeline runs (DISTINCT aggregates are not supported yet); use ndv(x) for a distinct count',
    ]);
    expect(
      errorsOf(
        distinctAggregates,
        "SELECT sum(DISTINCT temperature) FROM sensor_stream GROUP BY tumblingwindow('ss', 10)",
      )[0],
    ).toMatch(/^DISTINCT inside sum\(…\) is not supported by veloFlux/);
  });

  it('accepts ndv() and leaves SELECT DISTINCT to ignored-distinct', () => {
    expect(
      errorsOf(distinctAggregates, "SELECT ndv(device_id) FROM sensor_stream GROUP BY tumblingwindow('ss', 10)"),
    ).toEqual([]);
    expect(errorsOf(distinctAggregates, 'SELECT DISTINCT device_id FROM sensor_stream')).toEqual([]);
  });
});
