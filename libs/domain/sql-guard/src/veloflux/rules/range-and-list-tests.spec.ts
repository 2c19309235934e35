import { errorsOf } from '../../__fixtures__/rule-harness';
import { rangeAndListTests } from './range-and-list-tests';

describe('range-and-list-tests', () => {
  it('refuses BETWEEN and NOT BETWEEN with the comparisons that run', () => {
    expect(errorsOf(rangeAndListTests, 'SELECT * FROM sensor_stream WHERE temperature BETWEEN 10 AND 50')).toEqual([
      'BETWEEN fails on every row when a veloFlux pipeline runs; write x >= a AND x <= b instead',
    ]);
    expect(
      errorsOf(rangeAndListTests, 'SELECT * FROM sensor_stream WHERE (temperature NOT BETWEEN 10 AND 50)'),
    ).toEqual(['NOT BETWEEN fails on every row when a veloFlux pipeline runs; write x < a OR x > b instead']);
  });

  it('refuses IN and NOT IN value lists with ORed (ANDed) comparisons', () => {
    expect(errorsOf(rangeAndListTests, "SELECT * FROM sensor_stream WHERE device_id IN ('a', 'b')")).toEqual([
      "IN (…) fails on every row when a veloFlux pipeline runs; write x = 'a' OR x = 'b' instead",
    ]);
    expect(errorsOf(rangeAndListTests, 'SELECT * FROM sensor_stream WHERE humidity NOT IN (5, 6)')[0]).toMatch(
      /^NOT IN \(…\) fails on every row.*x != 'a' AND x != 'b'/,
    );
  });

  it('accepts the comparisons, and leaves IN (SELECT …) and words inside strings alone', () => {
    expect(
      errorsOf(
        rangeAndListTests,
        "SELECT * FROM sensor_stream WHERE temperature >= 10 AND temperature <= 50 OR device_id = 'in'",
      ),
    ).toEqual([]);
    expect(errorsOf(rangeAndListTests, "SELECT * FROM sensor_stream WHERE device_id = 'x between y'")).toEqual([]);
    expect(
      errorsOf(
        rangeAndListTests,
        'SELECT * FROM sensor_stream WHERE device_id IN (SELECT device_id FROM sensor_stream)',
      ),
    ).toEqual([]);
  });
});
