import { describeKeyRule, reconcileKeys } from './join-keys';

describe('reconcileKeys', () => {
  it('keeps exact matching when the keys already agree', () => {
    const v = reconcileKeys([1, 2, 3], [1, 2, 4]);
    expect(v.rule).toBe('exact');
    expect(v.matchRate).toBeCloseTo(2 / 3);
    expect(describeKeyRule(v.rule, 'a', 'b', v.matchRate)).toBeNull();
  });

  it('casts an integer key and a padded text key to one type', () => {
    const v = reconcileKeys([1, 2, 42], ['001', '002', '042']);
    expect(v.rule).toBe('cast');
    expect(v.matchRate).toBe(1);
    expect(v.normalise('042')).toBe(v.normalise(42));
  });

  it('trims, then folds case, only as far as it takes', () => {
    expect(reconcileKeys(['dev-01', 'dev-02'], [' dev-01', 'dev-02 ']).rule).toBe('trim');
    const folded = reconcileKeys(['dev-01', 'dev-02'], ['DEV-01 ', 'Dev-02']);
    expect(folded.rule).toBe('casefold');
    expect(describeKeyRule(folded.rule, 'sensor_readings.device_id', 'devices.device_id', folded.matchRate)).toMatch(
      /ignoring case.*100 %/,
    );
  });

  it('reports a low match rate for keys no rule reconciles', () => {
    const v = reconcileKeys(['C-1', 'C-2', 'C-3'], [1, 2, 3]);
    expect(v.matchRate).toBe(0);
  });

  it('never joins nulls', () => {
    expect(reconcileKeys([null, null], [null]).matchRate).toBeNull();
  });
});
