import { contractGrounding, errorsOf } from '../../__fixtures__/rule-harness';
import { jsonOperators } from './json-operators';

describe('json-operators', () => {
  it.each(['->>', '#>', '#>>', '@>'])('refuses %s and shows ->', (op) => {
    expect(errorsOf(jsonOperators, `SELECT location ${op} 'lat' FROM vehicle`, contractGrounding('vehicle'))).toEqual([
      `the JSON operator '${op}' is not supported by veloFlux; read struct fields with -> and parentheses, e.g. (payload->field)`,
    ]);
  });

  it('accepts ->', () => {
    expect(errorsOf(jsonOperators, 'SELECT (location->lat) FROM vehicle', contractGrounding('vehicle'))).toEqual([]);
  });
});
