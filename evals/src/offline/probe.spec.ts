import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureDemoDatabase } from '@nl2p/engine';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { readRequest } from '../../../libs/domain/nodes/src/reading';
import { linkRequest } from '@nl2p/linking';
import { duckDbLinkSchema } from './link-schema';
import { readOnce } from './read-once';
import { spiderDatabase } from './spider-set';
import { buildDefogDatabase, defogDirs } from '../devset/defog';

const DEFOG_PREFIX = 'defog/';

/** The DuckDB file of `demo`, `spider/<db>` or `defog/<db>` (defog's PostgreSQL dump, loaded afresh). */
async function probeDatabase(root: string, name: string): Promise<string> {
  if (name === 'demo') {
    const file = path.join(root, 'tmp', 'probe-demo.duckdb');
    await ensureDemoDatabase(file);
    return file;
  }
  if (name.startsWith(DEFOG_PREFIX)) {
    const found = defogDirs(process.env);
    if ('missing' in found) throw new Error(found.missing);
    return (
      await buildDefogDatabase(found.dirs.data, name.slice(DEFOG_PREFIX.length), path.join(root, 'tmp', 'probe-defog'))
    ).path;
  }
  return (await spiderDatabase(process.env, name, path.join(root, 'tmp', 'spider-duckdb'))).path;
}

/**
 * A developer's look at one reading: `PROBE_DB` (`demo`, `spider/<db>` or `defog/<db>`) and `PROBE` (one request
 * per line) print what the no-model path does with each — outcome, SQL, doubts, the reading's
 * accounting. Skipped unless both are set; a tool, not a test (`bash scripts/eval.sh --probe`).
 */
const db = process.env.PROBE_DB;
const requests = (process.env.PROBE ?? '').split('\n').filter((r) => r.trim());

(db && requests.length ? describe : describe.skip)('probe a reading', () => {
  jest.setTimeout(5 * 60_000);

  it('prints the readings', async () => {
    const root = path.resolve(__dirname, '../../..');
    const file = await probeDatabase(root, db as string);
    const schema = await duckDbLinkSchema(file);
    // The schema as the linker sees it, for a scratch test of one rule (`PROBE_SCHEMA_OUT=file`).
    if (process.env.PROBE_SCHEMA_OUT) writeFileSync(process.env.PROBE_SCHEMA_OUT, JSON.stringify(schema));
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
        ...links.aggregates.map(
          (a) =>
            `  aggregate "${a.text}": ${a.fn}${a.distinct ? ' distinct' : ''}${a.countsRows ? ' rows' : ''}` +
            `${a.superlative ? ' superlative' : ''} of ${JSON.stringify(a.target)}`,
        ),
        ...links.groups.map((g) => `  group "${g.text}" (${g.cue}) by term ${g.term}`),
        ...links.orders.map(
          (o) =>
            `  order "${o.text}" [${o.start},${o.end}): ${o.direction ?? '-'}` +
            ` limit ${o.limit ?? '-'} key ${JSON.stringify(o.key)}`,
        ),
        ...links.terms.map(
          (t) =>
            `  term ${t.id} "${t.text}" [${t.start},${t.end})${t.projected ? ' projected' : ''}${t.negated ? ' negated' : ''}: ` +
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
