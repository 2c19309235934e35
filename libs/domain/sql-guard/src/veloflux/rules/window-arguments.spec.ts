import { errorsOf } from '../../__fixtures__/rule-harness';
import { windowArguments } from './window-arguments';

describe('window-arguments', () => {
  it('converts other time units to seconds', () => {
    expect(errorsOf(windowArguments, "SELECT count(*) FROM sensor_stream GROUP BY tumblingwindow('mi', 5)")).toEqual([
      "tumblingwindow accepts only the time unit 'ss' (seconds), found 'mi'; write tumblingwindow('ss', 300) for 5 minute(s)",
    ]);
  });

  it('checks argument counts and unsigned integer lengths', () => {
    expect(errorsOf(windowArguments, "SELECT count(*) FROM sensor_stream GROUP BY tumblingwindow('ss')")[0]).toMatch(
      /^tumblingwindow requires 2 arguments/,
    );
    expect(errorsOf(windowArguments, "SELECT count(*) FROM sensor_stream GROUP BY tumblingwindow('ss', 1.5)")).toEqual([
      "tumblingwindow length must be an unsigned integer literal, found '1.5'; write e.g. tumblingwindow('ss', 10)",
    ]);
    expect(errorsOf(windowArguments, 'SELECT count(*) FROM sensor_stream GROUP BY countwindow(n)')[0]).toMatch(
      /^countwindow count must be/,
    );
  });

  it('allows OVER (PARTITION BY …) on statewindow only', () => {
    expect(
      errorsOf(
        windowArguments,
        "SELECT count(*) FROM sensor_stream GROUP BY tumblingwindow('ss', 10) OVER (PARTITION BY device_id)",
      )[0],
    ).toMatch(/^tumblingwindow does not take OVER/);
    expect(
      errorsOf(
        windowArguments,
        'SELECT count(*) FROM sensor_stream GROUP BY statewindow(temperature > 30, temperature < 20) OVER (PARTITION BY device_id ORDER BY ts)',
      ),
    ).toEqual(['statewindow OVER allows only PARTITION BY (no ORDER BY, no frame): OVER (PARTITION BY k1, k2)']);
    expect(
      errorsOf(
        windowArguments,
        'SELECT count(*) FROM sensor_stream GROUP BY statewindow(temperature > 30, temperature < 20) OVER (PARTITION BY device_id)',
      ),
    ).toEqual([]);
  });
});
