import { errorsOf } from '../../__fixtures__/rule-harness';
import { concatOperator } from './concat-operator';

describe('concat-operator', () => {
  it('refuses || and names concat', () => {
    expect(errorsOf(concatOperator, "SELECT device_id || '-x' FROM sensor_stream")).toEqual([
      'the || operator is not supported by veloFlux; use concat(a, b) (exactly two arguments; nest concat for more)',
    ]);
  });

  it('accepts concat()', () => {
    expect(errorsOf(concatOperator, "SELECT concat(device_id, '-x') FROM sensor_stream")).toEqual([]);
  });
});
