import { errorsOf } from '../../__fixtures__/rule-harness';
import { subqueries } from './subqueries';

describe('subqueries', () => {
  it('refuses EXISTS and a nested SELECT', () => {
    expect(errorsOf(subqueries, 'SELECT * FROM sensor_stream WHERE EXISTS (SELECT 1 FROM vehicle)')).toContain(
      'EXISTS and subqueries are not supported by veloFlux; express the condition on the stream columns directly',
    );
    expect(
      errorsOf(
        subqueries,
        'SELECT * FROM sensor_stream WHERE temperature > (SELECT avg(temperature) FROM sensor_stream)',
      ),
    ).toEqual([
      'subqueries are not supported by veloFlux; write one SELECT over the stream (use a window and HAVING for conditions on aggregates)',
    ]);
  });

  it('leaves the one accepted FROM subquery to from-source', () => {
    expect(errorsOf(subqueries, 'SELECT device_id FROM (SELECT device_id FROM sensor_stream) t')).toEqual([]);
  });
});
