import { QueryPlan } from '@nl2p/query-plan';
import { reviewWhereSemantics, WHERE_AFTER_WINDOW } from './where-semantics';

const plan = QueryPlan.parse({
  source: 'sensor_stream',
  select: [{ kind: 'aggregate', aggregate: { fn: 'avg', arg: { kind: 'column', ref: { column: 'temperature' } } } }],
  where: {
    kind: 'compare',
    left: { kind: 'column', ref: { column: 'temperature' } },
    op: '>',
    value: { kind: 'number', value: 0 },
  },
  window: { kind: 'tumbling', unit: 'second', size: 10 },
});
// The logical plan the real engine printed for this shape (recorded: pipeline_explain_validate_nop).
const RECORDED = `Logical Plan Explain:
- id                           | info
  Tail_6                       | sink_count=1
  └─Project_4                  | fields=[device_id; col_1 as avg_temp]
    └─Filter_3                 | predicate=temperature > 0
      └─Aggregation_2          | aggregates=[avg(temperature) -> col_1], group_by=[device_id]
        └─Window_1             | kind=tumbling, unit=Seconds, length=10

Physical Plan Explain:
  └─PhysicalFilter_5`;

describe('reviewWhereSemantics', () => {
  it('confirms the assumption when the engine plans the filter above the aggregation', () => {
    expect(reviewWhereSemantics(plan, RECORDED, [WHERE_AFTER_WINDOW])).toEqual([
      `${WHERE_AFTER_WINDOW} (The engine's plan shows it: Filter above Aggregation.)`,
    ]);
  });

  it('says what the plan shows when it filters before aggregating', () => {
    const below = RECORDED.replace('Filter_3  ', 'Other_3  ').replace('Window_1 ', 'Filter_1 ');
    expect(reviewWhereSemantics(plan, below, [WHERE_AFTER_WINDOW])).toEqual([
      "The engine's plan filters rows before aggregating them (Filter below Aggregation).",
    ]);
  });

  it('leaves other plans and unreadable explains alone', () => {
    expect(reviewWhereSemantics(QueryPlan.parse({ source: 's' }), RECORDED, ['x'])).toEqual(['x']);
    expect(reviewWhereSemantics(plan, '(the engine could not explain the plan)', [WHERE_AFTER_WINDOW])).toEqual([
      WHERE_AFTER_WINDOW,
    ]);
  });
});
