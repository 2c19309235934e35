import { errorsOf } from '../../__fixtures__/rule-harness';
import { oneWindow } from './one-window';

describe('one-window', () => {
  it('refuses two windows in GROUP BY', () => {
    expect(
      errorsOf(oneWindow, "SELECT count(*) FROM sensor_stream GROUP BY tumblingwindow('ss', 10), countwindow(5)"),
    ).toEqual(['only one window is allowed in GROUP BY, found 2 (tumblingwindow, countwindow); keep one']);
  });

  it('accepts one', () => {
    expect(
      errorsOf(oneWindow, "SELECT count(*) FROM sensor_stream GROUP BY device_id, tumblingwindow('ss', 10)"),
    ).toEqual([]);
  });
});
