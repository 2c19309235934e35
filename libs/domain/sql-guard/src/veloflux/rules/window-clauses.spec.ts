import { contractGrounding, errorsOf } from '../../__fixtures__/rule-harness';
import { windowClauses } from './window-clauses';

describe('window-clauses', () => {
  it('refuses a WINDOW clause and a QUALIFY clause, pointing at GROUP BY', () => {
    expect(errorsOf(windowClauses, 'SELECT count(*) FROM sensor_stream WINDOW w AS (PARTITION BY device_id)')).toEqual([
      "WINDOW clauses are not supported by veloFlux; windows go inside GROUP BY, e.g. GROUP BY tumblingwindow('ss', 10)",
    ]);
    expect(errorsOf(windowClauses, 'SELECT device_id FROM sensor_stream QUALIFY device_id = 1')[0]).toMatch(
      /^QUALIFY clauses/,
    );
  });

  it('accepts a column called window (the engine does)', () => {
    const g = contractGrounding('sensor_stream', { columns: [{ name: 'window', data_type: 'string' }] });
    expect(errorsOf(windowClauses, 'SELECT window FROM sensor_stream', g)).toEqual([]);
  });

  it('accepts the window in GROUP BY', () => {
    expect(errorsOf(windowClauses, "SELECT count(*) FROM sensor_stream GROUP BY tumblingwindow('ss', 10)")).toEqual([]);
  });
});
