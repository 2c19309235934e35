import { errorsOf } from '../../__fixtures__/rule-harness';
import { casts } from './casts';

describe('casts', () => {
  it('refuses ::, CAST(x AS t) and cast(x, t), each saying no spelling works', () => {
    expect(errorsOf(casts, 'SELECT temperature::bigint FROM sensor_stream')[0]).toMatch(
      /^'::' casts are not supported/,
    );
    expect(errorsOf(casts, 'SELECT CAST(temperature AS bigint) FROM sensor_stream')).toEqual([
      'CAST(x AS bigint) is not supported by veloFlux (cast() is not callable in any spelling either); use the column as it is typed, or format(x) to turn a number into a string',
    ]);
    expect(errorsOf(casts, "SELECT cast(temperature, 'bigint') FROM sensor_stream")[0]).toMatch(
      /^cast\(x, 'type'\) cannot be called in veloFlux \(the parser expects CAST\(x AS type\)/,
    );
  });

  it('accepts format() and a column as it is typed', () => {
    expect(errorsOf(casts, 'SELECT format(temperature), ts FROM sensor_stream')).toEqual([]);
  });
});
