import { errorsOf } from '../../__fixtures__/rule-harness';
import { ungroupedColumns } from './ungrouped-columns';

describe('ungrouped-columns', () => {
  it('asks to group or aggregate a plain column beside an aggregate, showing the GROUP BY to write', () => {
    expect(
      errorsOf(
        ungroupedColumns,
        "SELECT device_id, avg(temperature) FROM sensor_stream GROUP BY tumblingwindow('ss', 10)",
      ),
    ).toEqual([
      "SELECT expression 'device_id' must be an aggregate or appear in GROUP BY; add it to GROUP BY (e.g. GROUP BY device_id, tumblingwindow('ss', 10)) or aggregate it, e.g. last_row(device_id)",
    ]);
  });

  it('accepts grouped keys, also parenthesized', () => {
    expect(
      errorsOf(
        ungroupedColumns,
        "SELECT (device_id), avg(temperature) FROM sensor_stream GROUP BY device_id, tumblingwindow('ss', 10)",
      ),
    ).toEqual([]);
  });
});
