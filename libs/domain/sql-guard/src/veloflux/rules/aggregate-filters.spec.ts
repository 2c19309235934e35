import { errorsOf } from '../../__fixtures__/rule-harness';
import { aggregateFilters } from './aggregate-filters';

describe('aggregate-filters', () => {
  it('refuses FILTER (WHERE …), which the running pipeline ignores, and shows the condition inside', () => {
    expect(
      errorsOf(
        aggregateFilters,
        "SELECT avg(temperature) FILTER (WHERE temperature > 30) FROM sensor_stream GROUP BY tumblingwindow('ss', 10)",
      ),
    ).toEqual([
      'veloFlux ignores FILTER (WHERE …) on avg() when the pipeline runs (the aggregate still covers every row); write the condition inside the aggregate instead: avg(CASE WHEN <condition> THEN x END)',
    ]);
    expect(
      errorsOf(
        aggregateFilters,
        "SELECT count(*) FILTER (WHERE temperature > 30) FROM sensor_stream GROUP BY tumblingwindow('ss', 10)",
      )[0],
    ).toMatch(/count\(CASE WHEN <condition> THEN 1 END\)$/);
  });

  it('accepts the condition inside the aggregate', () => {
    expect(
      errorsOf(
        aggregateFilters,
        "SELECT avg(CASE WHEN temperature > 30 THEN temperature END) FROM sensor_stream GROUP BY tumblingwindow('ss', 10)",
      ),
    ).toEqual([]);
  });
});
