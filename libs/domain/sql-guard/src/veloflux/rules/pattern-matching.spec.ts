import { errorsOf } from '../../__fixtures__/rule-harness';
import { patternMatching } from './pattern-matching';

describe('pattern-matching', () => {
  it.each(['LIKE', 'ILIKE'])('refuses %s with the functions to use', (op) => {
    expect(errorsOf(patternMatching, `SELECT * FROM sensor_stream WHERE device_id ${op} 'a%'`)).toEqual([
      `${op} is not supported by veloFlux; use regexp_matches(x, 'pattern'), startswith(x, 'prefix') or endswith(x, 'suffix')`,
    ]);
  });

  it('accepts startswith()', () => {
    expect(errorsOf(patternMatching, "SELECT * FROM sensor_stream WHERE startswith(device_id, 'a')")).toEqual([]);
  });
});
