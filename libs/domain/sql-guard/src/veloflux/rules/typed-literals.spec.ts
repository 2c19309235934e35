import { errorsOf } from '../../__fixtures__/rule-harness';
import { typedLiterals } from './typed-literals';

describe('typed-literals', () => {
  it('refuses TIMESTAMP / DATE literals: times are epoch numbers', () => {
    expect(errorsOf(typedLiterals, "SELECT * FROM sensor_stream WHERE ts > TIMESTAMP '2024-01-01 00:00:00'")).toEqual([
      "typed literals like TIMESTAMP '2024-01-01 00:00:00' are not supported by veloFlux; compare with a Unix epoch number instead, or use from_unix_time(seconds)",
    ]);
  });

  it('accepts an epoch number', () => {
    expect(errorsOf(typedLiterals, 'SELECT * FROM sensor_stream WHERE ts > 1704067200')).toEqual([]);
  });
});
