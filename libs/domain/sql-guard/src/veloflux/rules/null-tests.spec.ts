import { errorsOf } from '../../__fixtures__/rule-harness';
import { nullTests } from './null-tests';

describe('null-tests', () => {
  it('turns IS NULL and IS NOT NULL into isnull()', () => {
    expect(errorsOf(nullTests, 'SELECT * FROM sensor_stream WHERE temperature IS NULL')).toEqual([
      'IS NULL is not supported by veloFlux; write isnull(x) instead',
    ]);
    expect(errorsOf(nullTests, 'SELECT * FROM sensor_stream WHERE temperature IS NOT NULL')).toEqual([
      'IS NOT NULL is not supported by veloFlux; write NOT isnull(x) instead',
    ]);
  });

  it('refuses other IS tests with comparisons as the way out', () => {
    expect(errorsOf(nullTests, 'SELECT * FROM sensor_stream WHERE (temperature > 1) IS TRUE')[0]).toMatch(
      /^IS TRUE is not supported by veloFlux; compare with = \/ !=/,
    );
  });

  it('accepts isnull()', () => {
    expect(errorsOf(nullTests, 'SELECT * FROM sensor_stream WHERE NOT isnull(temperature)')).toEqual([]);
  });
});
