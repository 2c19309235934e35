import { contractGrounding, errorsOf } from '../../__fixtures__/rule-harness';
import { qualifiedNames } from './qualified-names';

const VEHICLE = contractGrounding('vehicle');

describe('qualified-names', () => {
  it('refuses three parts, dot syntax on a struct column, and an unknown qualifier', () => {
    expect(errorsOf(qualifiedNames, 'SELECT vehicle.location.lat FROM vehicle', VEHICLE)[0]).toMatch(
      /^'vehicle\.location\.lat' has more than two parts; .* \(location->lat\)$/,
    );
    expect(errorsOf(qualifiedNames, 'SELECT location.lat FROM vehicle', VEHICLE)).toEqual([
      "'location.lat': dot syntax means stream.column in veloFlux; for a struct field write (location->lat)",
    ]);
    expect(errorsOf(qualifiedNames, 'SELECT x.vin FROM vehicle v', VEHICLE)).toEqual([
      "unknown stream or alias 'x' in 'x.vin'; the query reads from 'vehicle' (alias 'v')",
    ]);
  });

  it('accepts stream.column and alias.column', () => {
    expect(errorsOf(qualifiedNames, 'SELECT vehicle.vin FROM vehicle', VEHICLE)).toEqual([]);
    expect(errorsOf(qualifiedNames, 'SELECT v.vin FROM vehicle v', VEHICLE)).toEqual([]);
  });
});
