import { contractGrounding, errorsOf } from '../../__fixtures__/rule-harness';
import { structAccess } from './struct-access';

const VEHICLE = contractGrounding('vehicle');

describe('struct-access', () => {
  it('reports unknown fields, -> on a non-struct, and -> without a field name', () => {
    expect(errorsOf(structAccess, 'SELECT (location->latt) FROM vehicle', VEHICLE)).toEqual([
      "unknown field 'latt' in struct 'location'; did you mean 'lat'?; available fields: lat, lon",
    ]);
    expect(errorsOf(structAccess, 'SELECT (speed->x) FROM vehicle', VEHICLE)).toEqual([
      "'speed' is a int64, not a struct, so 'speed->x' has no field to read",
    ]);
    expect(errorsOf(structAccess, "SELECT location->'lat' FROM vehicle", VEHICLE)[0]).toMatch(
      /^'->' must be followed by a field name/,
    );
  });

  it('refuses a negative list index and an unparenthesized access before an operator', () => {
    expect(errorsOf(structAccess, 'SELECT tags[-1] FROM vehicle', VEHICLE)).toEqual([
      "negative list index in 'tags[-1]' is rejected by veloFlux; use element_at(tags, -1) to count from the end",
    ]);
    expect(errorsOf(structAccess, 'SELECT * FROM vehicle WHERE location->lat > 1', VEHICLE)[0]).toMatch(
      /^struct access 'location->lat' must be parenthesized when followed by '>'/,
    );
  });

  it('walks list elements into their struct fields', () => {
    expect(
      errorsOf(structAccess, 'SELECT (wheels[0]->pressure) FROM vehicle WHERE (location->lat) > 1', VEHICLE),
    ).toEqual([]);
  });
});
