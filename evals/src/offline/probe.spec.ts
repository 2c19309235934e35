import path from 'node:path';
import { ensureDemoDatabase } from '@nl2p/engine';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { readRequest } from '../../../libs/domain/nodes/src/reading';
import { linkRequest } from '@nl2p/linking';
import { duckDbLinkSchema } from './link-schema';
import { readOnce } from './read-once';
import { spiderDatabase } from './spider-set';

/**
 * A developer's look at one reading: `PROBE_DB` (`demo` or `spider/<db>`) and `PROBE` (one request
 * per line) print what the no-model path does with each — outcome, SQL, doubts, the reading's
 * accounting. Skipped unless both are set; a tool, not a test (`bash scripts/eval.sh --probe`).
 */
const db = process.env.PROBE_DB;
const requests = (process.env.PROBE ?? '').split('\n').filter((r) => r.trim());

(db && requests.length ? describe : describe.skip)('probe a reading', () => {
  jest.setTimeout(5 * 60_000);

  it('prints the readings', async () => {
    const root = path.resolve(__dirname, '../../..');
    // A defog database is the copy the linker eval made (tmp/linker-eval): run it once first.
    const file =
      db === 'demo'
        ? path.join(root, 'tmp', 'probe-demo.duckdb')
        : db?.startsWith('defog/')
          ? path.join(root, 'tmp', 'linker-eval', `${db.slice('defog/'.length)}.duckdb`)
          : (await spiderDatabase(process.env, db as string, path.join(root, 'tmp', 'spider-duckdb'))).path;
    if (db === 'demo') await ensureDemoDatabase(file);
    const schema = await duckDbLinkSchema(file);
    const out: string[] = [`tables: ${Object.keys(schema.tables).join(', ')}`];
    for (const request of requests) {
      const once = readOnce(request, schema);
      const r = readRequest(request, schema, { linking: true, mode: 'plan', trustLinks: true });
      const links = linkRequest(request, schema);
      out.push(
        '',
        `> ${request}`,
        `outcome: ${once.outcome}${once.why ? ` (${once.why})` : ''}${once.question ? ` — ${once.question}` : ''}`,
        `sql: ${once.sql ?? '-'}`,
        `table: ${r.table}  confidence: ${r.confidence}  trusted: ${r.trusted}`,
        `doubts: ${r.doubts.join(' | ') || '-'}`,
        `unknown: ${r.unknown.join(', ') || '-'}  ambiguous: ${JSON.stringify(r.ambiguous)}`,
        `assumptions: ${r.assumptions.join(' | ') || '-'}`,
        `plan: ${JSON.stringify(r.plan)}`,
        ...links.comparisons.map(
          (c) =>
            `  comparison "${c.text}": ${c.op} ${c.value}${c.aggregate ? ` (${c.aggregate})` : ''}` +
            `${c.excluded ? ' excluded' : ''}${c.orWithPrevious ? ' or' : ''}`,
        ),
        ...links.terms.map(
          (t) =>
            `  term "${t.text}" [${t.start},${t.end})${t.projected ? ' projected' : ''}${t.negated ? ' negated' : ''}: ` +
            [
              ...t.tables.slice(0, 3).map((c) => `table ${c.table} ${c.match}`),
              ...t.columns
                .slice(0, Number(process.env.PROBE_COLUMNS ?? 8))
                .map((c) => `${c.table}.${c.column} ${c.match}`),
              ...t.values.slice(0, 2).map((v) => `value ${v.table}.${v.column}=${v.value}`),
            ].join(', '),
        ),
      );
    }
    process.stdout.write(`${out.join('\n')}\n`);
    expect(out.length).toBeGreaterThan(1);
  });
});
