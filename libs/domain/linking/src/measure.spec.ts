import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { linkRequest } from './link';
import { proposePlan } from './propose';
import { demoSchema } from './testing/fixtures';

/**
 * A measure, not a target: how much of the public eval set linking alone answers. Skipped by
 * default; run with LINKING_MEASURE=1 (add LINKING_MEASURE=verbose for every item's plan).
 */
const run = process.env['LINKING_MEASURE'] ? describe : describe.skip;

run('linking over evals/datasets/duckdb-demo.json', () => {
  it('prints how many items get a plan and how many clarify items are caught', () => {
    const path = join(__dirname, '../../../../evals/datasets/duckdb-demo.json');
    const set = JSON.parse(readFileSync(path, 'utf8')) as {
      items: { id: string; expect: string; table: string; request: string; gold_sql?: string }[];
    };
    const schema = demoSchema();
    const now = new Date(Date.UTC(2024, 3, 1));
    let planned = 0;
    let high = 0;
    let rightTable = 0;
    let caught = 0;
    const sql = set.items.filter((i) => i.expect === 'sql');
    const clarify = set.items.filter((i) => i.expect === 'clarify');
    const lines: string[] = [];
    for (const item of set.items) {
      const p = proposePlan(linkRequest(item.request, schema, { now }), schema);
      if (item.expect === 'sql') {
        if (p.plan) planned++;
        if (p.plan && p.confidence === 'high') high++;
        if (p.table === item.table) rightTable++;
      } else if (p.unknown.length || !p.plan || p.confidence === 'none') caught++;
      if (process.env['LINKING_MEASURE'] === 'verbose') {
        lines.push(
          `${item.id} [${p.confidence}] ${item.request}\n  gold: ${item.gold_sql ?? '(clarify)'}\n  unknown: ${JSON.stringify(p.unknown)} ambiguous: ${JSON.stringify(p.ambiguous)} doubts: ${JSON.stringify(p.doubts)}\n  plan: ${JSON.stringify(p.plan)}`,
        );
      }
    }
    lines.push(
      `sql items: ${sql.length}, with a plan: ${planned}, high confidence: ${high}, right table: ${rightTable}; clarify items: ${clarify.length}, caught (unknown or no plan): ${caught}`,
    );
    console.log(lines.join('\n'));
    expect(sql.length + clarify.length).toBe(set.items.length);
  });
});
