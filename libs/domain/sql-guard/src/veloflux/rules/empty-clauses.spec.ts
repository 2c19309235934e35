import { errorsOf } from '../../__fixtures__/rule-harness';
import { emptyClauses } from './empty-clauses';

describe('empty-clauses', () => {
  it.each([
    ['SELECT FROM sensor_stream', 'SELECT is empty; complete it or remove it'],
    ['SELECT device_id FROM sensor_stream WHERE', 'WHERE is empty; complete it or remove it'],
    ['SELECT count(*) FROM sensor_stream GROUP BY', 'GROUP BY is empty; complete it or remove it'],
    ['SELECT device_id FROM sensor_stream ORDER BY', 'ORDER BY is empty; complete it or remove it'],
  ])('%s', (sql, message) => {
    expect(errorsOf(emptyClauses, sql)).toEqual([message]);
  });

  it('accepts complete clauses', () => {
    expect(
      errorsOf(emptyClauses, 'SELECT device_id FROM sensor_stream WHERE temperature > 1 ORDER BY device_id'),
    ).toEqual([]);
  });
});
