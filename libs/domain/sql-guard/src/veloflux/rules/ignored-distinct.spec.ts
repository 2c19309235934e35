import { findingsOf } from '../../__fixtures__/rule-harness';
import { ignoredDistinct } from './ignored-distinct';

describe('ignored-distinct', () => {
  it('warns that SELECT DISTINCT still emits duplicates', () => {
    const found = findingsOf(ignoredDistinct, 'SELECT DISTINCT device_id FROM sensor_stream');
    expect(found.errors).toEqual([]);
    expect(found.warnings).toEqual([
      'SELECT DISTINCT is ignored by veloFlux (duplicates are still emitted); remove DISTINCT, or use deduplicate(x) inside a window',
    ]);
  });

  it('says nothing of SELECT ALL', () => {
    expect(findingsOf(ignoredDistinct, 'SELECT ALL device_id FROM sensor_stream').warnings).toEqual([]);
  });
});
