import { proposalOf, type SchemaName } from '../testing/corpus';
import { planText } from '../testing/plan-text';

// `both` before two conditions: each asks its own rows, the answers intersected.
describe('both-conditions', () => {
  it.each([
    ['customers with both orders with a quantity above 10 and orders with a quantity below 2', 'quantity > 10', 'quantity < 2', 'demo'],
    ['Which vendors have both trips with a fare above 50 and trips with a fare under 5?', 'fare_amt > 50', 'fare_amt < 5', 'taxi'],
  ])('%s', (say, first, second, on) => {
    const p = proposalOf(say, on as SchemaName);
    expect(planText(p.plan)?.where).toContain(first);
    expect(planText(p.plan)?.where).not.toContain(second);
    expect(p.plan?.set_operations?.map((o) => o.op)).toEqual(['intersect']);
    expect(planText(p.plan?.set_operations?.[0]?.plan ?? null)?.where).toContain(second);
    expect(p.readings).toContain('"both" is read as the answers for each of 2 conditions, intersected');
  }); // prettier-ignore

  it('without `both`, the conditions hold together', () => {
    const p = proposalOf('orders with a quantity above 10 and a quantity below 20');
    expect(p.plan?.set_operations ?? []).toEqual([]);
  });
});
