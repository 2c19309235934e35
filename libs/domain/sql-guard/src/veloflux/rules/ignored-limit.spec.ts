import { findingsOf } from '../../__fixtures__/rule-harness';
import { ignoredLimit } from './ignored-limit';

describe('ignored-limit', () => {
  it('warns that LIMIT and OFFSET are ignored, without failing the check', () => {
    const found = findingsOf(ignoredLimit, 'SELECT device_id FROM sensor_stream LIMIT 10 OFFSET 2');
    expect(found.errors).toEqual([]);
    expect(found.warnings).toEqual([
      'LIMIT is ignored by veloFlux (the pipeline emits every row or window result); remove it',
      'OFFSET is ignored by veloFlux (the pipeline emits every row or window result); remove it',
    ]);
  });

  it('says nothing without them', () => {
    expect(findingsOf(ignoredLimit, 'SELECT device_id FROM sensor_stream').warnings).toEqual([]);
  });
});
