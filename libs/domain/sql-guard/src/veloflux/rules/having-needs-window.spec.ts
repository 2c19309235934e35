import { errorsOf } from '../../__fixtures__/rule-harness';
import { havingNeedsWindow } from './having-needs-window';

describe('having-needs-window', () => {
  it('refuses HAVING without a window in GROUP BY', () => {
    expect(
      errorsOf(
        havingNeedsWindow,
        'SELECT device_id, count(*) FROM sensor_stream GROUP BY device_id HAVING count(*) > 1',
      )[0],
    ).toMatch(/^HAVING requires a window in GROUP BY in veloFlux/);
  });

  it('accepts HAVING with a window', () => {
    expect(
      errorsOf(
        havingNeedsWindow,
        "SELECT count(*) FROM sensor_stream GROUP BY tumblingwindow('ss', 10) HAVING count(*) > 1",
      ),
    ).toEqual([]);
  });
});
