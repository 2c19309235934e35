import { proposalOf } from '../testing/corpus';
import { planText } from '../testing/plan-text';

// `both A and B` is read by values (as an intersection) and built by the conclusion; this is its corpus.
describe('both A and B (values, conclusion)', () => {
  it.each([
    ['customers who ordered both books and electronics', "category = 'books'", "category = 'electronics'"],
    ['countries with both a customer in the enterprise segment and one in the consumer segment', "segment = 'enterprise'", "segment = 'consumer'"],
  ])('%s', (say, first, second) => {
    const p = proposalOf(say);
    const plan = planText(p.plan);
    expect(plan?.where).toContain(first);
    expect(p.plan?.set_operations?.map((o) => o.op)).toEqual(['intersect']);
    expect(JSON.stringify(p.plan?.set_operations?.[0]?.plan.where)).toContain(second.split("'")[1]);
    expect(p.readings.some((r) => r.startsWith('"both" is read as rows having each of'))).toBe(true);
  }); // prettier-ignore

  it('either of two values stays an IN', () => {
    const p = proposalOf('customers who ordered books or electronics');
    expect(p.plan?.set_operations ?? []).toEqual([]);
  });
});
