import type { QueryPlan } from '@nl2p/query-plan';
import { numbersIn } from './clause-words';
import { conjuncts, sameColumn } from './plan-walk';

/**
 * Whether a revision the model wrote from feedback does what the feedback said, as far as the
 * feedback can be read without a model: a threshold replaced by a new number must not remain
 * beside it. Null when nothing contradicts the edit; else why the revision is refused.
 */
export function checkEdit(before: QueryPlan, after: QueryPlan, feedback: string): string | null {
  const numbers = numbersIn(feedback);
  const wanted = numbers[0];
  if (numbers.length !== 1 || wanted === undefined) return null;
  const comparisons = (p: QueryPlan) =>
    conjuncts(p.where).flatMap((c) =>
      c.kind === 'compare' && c.left.kind === 'column' && c.value.kind === 'number'
        ? [{ ref: c.left.ref, op: c.op, value: c.value.value }]
        : [],
    );
  const now = comparisons(after);
  for (const old of comparisons(before)) {
    if (old.value === wanted) continue;
    const onColumn = now.filter((c) => sameColumn(after, c.ref, old.ref));
    const kept = onColumn.some((c) => c.value === old.value);
    const added = onColumn.some((c) => c.value === wanted);
    if (kept && added) {
      return `the revision kept ${old.ref.column} ${old.op} ${old.value} beside the new ${wanted}, which the feedback replaces`;
    }
  }
  return null;
}
