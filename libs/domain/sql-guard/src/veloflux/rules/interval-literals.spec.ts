import { contractGrounding, errorsOf } from '../../__fixtures__/rule-harness';
import { intervalLiterals } from './interval-literals';

describe('interval-literals', () => {
  it('refuses INTERVAL literals: window lengths are seconds', () => {
    expect(
      errorsOf(
        intervalLiterals,
        "SELECT count(*) FROM sensor_stream GROUP BY tumblingwindow('ss', INTERVAL '5' MINUTE)",
      ),
    ).toEqual([
      "INTERVAL literals are not supported by veloFlux; window lengths are plain seconds, e.g. tumblingwindow('ss', 300) for 5 minutes",
    ]);
  });

  it('asks to quote a column named interval, and accepts it quoted', () => {
    const g = contractGrounding('sensor_stream', { columns: [{ name: 'interval', data_type: 'int64' }] });
    expect(errorsOf(intervalLiterals, 'SELECT interval FROM sensor_stream', g)[0]).toMatch(
      /^a column named interval must be quoted in veloFlux \("interval"\)/,
    );
    expect(errorsOf(intervalLiterals, 'SELECT "interval" FROM sensor_stream', g)).toEqual([]);
  });
});
