import { errorsOf } from '../../__fixtures__/rule-harness';
import { nullsOrdering } from './nulls-ordering';

describe('nulls-ordering', () => {
  it('refuses NULLS FIRST / LAST', () => {
    expect(errorsOf(nullsOrdering, 'SELECT * FROM sensor_stream ORDER BY ts DESC NULLS LAST')).toEqual([
      'NULLS FIRST / NULLS LAST is not supported by veloFlux; remove it from ORDER BY',
    ]);
  });

  it('accepts ORDER BY … DESC', () => {
    expect(errorsOf(nullsOrdering, 'SELECT * FROM sensor_stream ORDER BY ts DESC')).toEqual([]);
  });
});
