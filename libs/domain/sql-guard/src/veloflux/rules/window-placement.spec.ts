import { errorsOf } from '../../__fixtures__/rule-harness';
import { windowPlacement } from './window-placement';

describe('window-placement', () => {
  it('refuses a window outside GROUP BY, naming where it was found', () => {
    expect(errorsOf(windowPlacement, "SELECT tumblingwindow('ss', 10), count(*) FROM sensor_stream")).toEqual([
      "tumblingwindow(…) must be written inside GROUP BY, e.g. GROUP BY device_id, tumblingwindow('ss', 10); it cannot appear in the SELECT list",
    ]);
    expect(errorsOf(windowPlacement, 'SELECT count(*) FROM sensor_stream GROUP BY device_id + countwindow(5)')).toEqual(
      [],
    );
    expect(errorsOf(windowPlacement, 'SELECT count(*) FROM sensor_stream GROUP BY abs(countwindow(5))')[0]).toMatch(
      /cannot appear in a nested expression$/,
    );
  });

  it('accepts a window as a GROUP BY key', () => {
    expect(
      errorsOf(windowPlacement, "SELECT count(*) FROM sensor_stream GROUP BY device_id, slidingwindow('ss', 10)"),
    ).toEqual([]);
  });
});
