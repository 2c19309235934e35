import { errorsOf } from '../../__fixtures__/rule-harness';
import { extract } from './extract';

describe('extract', () => {
  it('refuses EXTRACT and lists the time functions', () => {
    expect(errorsOf(extract, 'SELECT EXTRACT(hour FROM ts) FROM sensor_stream')).toEqual([
      'EXTRACT is not supported by veloFlux; use the time functions hour(ts), minute(ts), second(ts), day_of_month(ts), month(ts), day_of_week(ts)',
    ]);
  });

  it('accepts hour()', () => {
    expect(errorsOf(extract, 'SELECT hour(ts) FROM sensor_stream')).toEqual([]);
  });
});
