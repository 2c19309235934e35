import { linkRequest, type LinkSchema } from '@nl2p/linking';
import { QueryPlan, type QueryPlanInput } from '@nl2p/query-plan';
// The linker's fixtures hold the demo, taxi and cars schemas as their catalogs present them.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { carsSchema, demoSchema, taxiSchema } from '../../../linking/src/testing/fixtures';
import { readRequest } from '../reading';
import { groundModelPlan, groundModelSql, requestEvidence, wordsOfTurn } from './index';

const OPTIONS = { linking: true, mode: 'plan' as const, trustLinks: false };

/** A model's plan judged against `request` over `schema`, the reading read as the `link` node would. */
function groundPlan(schema: LinkSchema, request: string, plan: QueryPlanInput) {
  const links = linkRequest(request, schema);
  const evidence = requestEvidence(links, schema, readRequest(request, schema, OPTIONS));
  return groundModelPlan(QueryPlan.parse(plan), evidence, links, schema);
}

/** A model's SQL judged against `request` over `schema`. */
function groundSql(schema: LinkSchema, request: string, sql: string) {
  const links = linkRequest(request, schema);
  const evidence = requestEvidence(links, schema, readRequest(request, schema, OPTIONS));
  const columns = new Set(Object.values(schema.tables).flatMap((cs) => cs.map((c) => c.name.toLowerCase())));
  return groundModelSql(sql, evidence, links, columns);
}

const sumQuantityPerStatus: QueryPlanInput = {
  source: 'orders',
  select: [
    { kind: 'value', expr: { kind: 'column', ref: { column: 'status' } } },
    { kind: 'aggregate', aggregate: { fn: 'sum', arg: { kind: 'column', ref: { column: 'quantity' } } } },
  ],
  group_by: [{ column: 'status' }],
};

describe('model plans: no condition the request did not say (issue 23)', () => {
  it('the container case: "quantity per status" drafted with quantity IS NULL loses it, said as an assumption', () => {
    const out = groundPlan(demoSchema(), 'quantity per status', {
      ...sumQuantityPerStatus,
      where: { kind: 'null', column: { column: 'quantity' } },
    });
    expect(out.kind).toBe('kept');
    expect(out.draft).toMatchObject({ where: null, group_by: [{ column: 'status' }] });
    expect(out.assumptions).toEqual(["I left out 'quantity is null': nothing in the request asks for it."]);
  });

  it('a threshold nobody said is left out; one the request says stays', () => {
    const invented = groundPlan(demoSchema(), 'quantity per status', {
      ...sumQuantityPerStatus,
      where: {
        kind: 'compare',
        left: { kind: 'column', ref: { column: 'quantity' } },
        op: '>',
        value: { kind: 'number', value: 3 },
      },
    });
    expect(invented.draft.where).toBeNull();
    const said = groundPlan(demoSchema(), 'quantity per status for orders with a quantity above 3', {
      ...sumQuantityPerStatus,
      where: {
        kind: 'compare',
        left: { kind: 'column', ref: { column: 'quantity' } },
        op: '>',
        value: { kind: 'number', value: 3 },
      },
    });
    expect(said).toMatchObject({ kind: 'kept', assumptions: [] });
    expect(said.draft.where).not.toBeNull();
  });

  it('a NULL test stays when a word says absence', () => {
    const out = groundPlan(demoSchema(), 'orders with a missing quantity per status', {
      ...sumQuantityPerStatus,
      where: { kind: 'null', column: { column: 'quantity' } },
    });
    expect(out).toMatchObject({ kind: 'kept', assumptions: [] });
    expect(out.draft.where).toMatchObject({ kind: 'null' });
  });

  it('taxi: of two conditions only the value the request names stays', () => {
    const out = groundPlan(taxiSchema(), 'average fare of trips from Manhattan', {
      source: 'trips',
      select: [{ kind: 'aggregate', aggregate: { fn: 'avg', arg: { kind: 'column', ref: { column: 'fare_amt' } } } }],
      where: {
        kind: 'and',
        conditions: [
          {
            kind: 'compare',
            left: { kind: 'column', ref: { column: 'pu_borough' } },
            op: '=',
            value: { kind: 'string', value: 'Manhattan' },
          },
          {
            kind: 'compare',
            left: { kind: 'column', ref: { column: 'payment_type' } },
            op: '=',
            value: { kind: 'string', value: 'cash' },
          },
        ],
      },
    });
    expect(out.kind).toBe('kept');
    expect(out.draft.where).toMatchObject({ kind: 'compare', value: { value: 'Manhattan' } });
    expect(out.assumptions).toEqual(["I left out 'payment_type = 'cash'': nothing in the request asks for it."]);
  });

  it('cars: a yes/no column a word names is the condition', () => {
    const out = groundPlan(carsSchema(), 'how many cars have an automatic gearbox', {
      source: 'cars',
      select: [{ kind: 'aggregate', aggregate: { fn: 'count', arg: null } }],
      where: {
        kind: 'compare',
        left: { kind: 'column', ref: { column: 'has_auto_gearbox' } },
        op: '=',
        value: { kind: 'boolean', value: true },
      },
    });
    expect(out).toMatchObject({ kind: 'kept', assumptions: [] });
    expect(out.draft.where).not.toBeNull();
  });

  it('a HAVING nobody asked for goes; one with the said number stays', () => {
    const having = [{ aggregate: { fn: 'count' as const, arg: null }, op: '>' as const, value: 100 }];
    const invented = groundPlan(demoSchema(), 'number of orders per status', { ...sumQuantityPerStatus, having });
    expect(invented.draft.having).toEqual([]);
    expect(invented.assumptions).toEqual(["I left out 'count(*) > 100': nothing in the request asks for it."]);
    const said = groundPlan(demoSchema(), 'statuses with more than 100 orders', { ...sumQuantityPerStatus, having });
    expect(said.draft.having).toHaveLength(1);
  });

  it('a LIMIT nobody asked for goes; one an order word asks for stays', () => {
    const invented = groundPlan(demoSchema(), 'quantity per status', { ...sumQuantityPerStatus, limit: 10 });
    expect(invented.draft.limit).toBeNull();
    expect(invented.assumptions).toEqual(["I left out 'LIMIT 10': nothing in the request asks for a number of rows."]);
    const asked = groundPlan(demoSchema(), 'the 3 statuses with the highest quantity', {
      ...sumQuantityPerStatus,
      limit: 3,
    });
    expect(asked.draft.limit).toBe(3);
  });

  it('a condition the reading itself proposed is evidence', () => {
    const request = 'orders in 2024 per status';
    const reading = readRequest(request, demoSchema(), OPTIONS);
    expect(reading.plan?.where).not.toBeNull();
    const out = groundPlan(demoSchema(), request, { ...reading.plan!, group_by: reading.plan!.group_by });
    expect(out).toMatchObject({ kind: 'kept', assumptions: [] });
    expect(out.draft.where).toEqual(reading.plan!.where);
  });

  it('asks when the left-out condition was the only use of a word the person said', () => {
    const out = groundPlan(taxiSchema(), 'trips paid by card per borough', {
      source: 'trips',
      select: [
        { kind: 'value', expr: { kind: 'column', ref: { column: 'pu_borough' } } },
        { kind: 'aggregate', aggregate: { fn: 'count', arg: null } },
      ],
      where: {
        kind: 'compare',
        left: { kind: 'column', ref: { column: 'payment_type' } },
        op: '=',
        value: { kind: 'string', value: 'cash' },
      },
      group_by: [{ column: 'pu_borough' }],
    });
    expect(out.kind).toBe('ask');
    if (out.kind === 'ask')
      expect(out.question).toBe(
        "The draft read 'card' as payment_type = 'cash', which nothing in the request says. What should 'card' mean here?",
      );
  });
});

describe('the words of a turn', () => {
  it("an answer to the turn's question evidences the condition it asks for, so the turn does not ask again", () => {
    const turn = {
      request: 'trips with a long distance',
      answers: [{ question: 'What should long mean?', answer: 'more than 10 km' }],
      feedback: null,
    };
    const sql = 'SELECT * FROM trips WHERE trip_dist_km > 10';
    expect(groundSql(taxiSchema(), turn.request, sql).draft).not.toBe(sql);
    expect(groundSql(taxiSchema(), wordsOfTurn(turn), sql)).toMatchObject({
      kind: 'kept',
      draft: sql,
      assumptions: [],
    });
  });
});

describe('model SQL: no condition the request did not say (issue 23)', () => {
  it('the container case: WHERE quantity IS NULL is cut out of the SQL the model wrote', () => {
    const out = groundSql(
      demoSchema(),
      'quantity per status',
      'SELECT status, SUM(quantity) FROM orders WHERE quantity IS NULL GROUP BY status',
    );
    expect(out).toEqual({
      kind: 'kept',
      draft: 'SELECT status, SUM(quantity) FROM orders GROUP BY status',
      assumptions: ["I left out 'quantity IS NULL': nothing in the request asks for it."],
    });
  });

  it('keeps the said conjunct, BETWEEN … AND … whole, and the AND beside a cut one', () => {
    const out = groundSql(
      taxiSchema(),
      'trips from Brooklyn with a fare between 10 and 20',
      "SELECT * FROM trips WHERE passenger_cnt > 2 AND fare_amt BETWEEN 10 AND 20 AND pu_borough = 'Brooklyn'",
    );
    expect(out.draft).toBe("SELECT * FROM trips WHERE fare_amt BETWEEN 10 AND 20 AND pu_borough = 'Brooklyn'");
    expect(out.assumptions).toEqual(["I left out 'passenger_cnt > 2': nothing in the request asks for it."]);
  });

  it("a join's extra ON condition goes, its key stays; an old-style join key in WHERE stays", () => {
    const joined = groundSql(
      taxiSchema(),
      'average fare per driver name',
      'SELECT d.full_name, AVG(t.fare_amt) FROM trips t JOIN drivers d ON t.driver_id = d.driver_id AND d.rating > 4 GROUP BY d.full_name',
    );
    expect(joined.draft).toBe(
      'SELECT d.full_name, AVG(t.fare_amt) FROM trips t JOIN drivers d ON t.driver_id = d.driver_id GROUP BY d.full_name',
    );
    const oldStyle = 'SELECT d.full_name, t.fare_amt FROM trips t, drivers d WHERE t.driver_id = d.driver_id';
    expect(groundSql(taxiSchema(), 'fares with driver names', oldStyle)).toMatchObject({
      kind: 'kept',
      draft: oldStyle,
      assumptions: [],
    });
  });

  it('a year said reads as its date bounds and inside date_part; a function argument is not a literal', () => {
    const sql = "SELECT COUNT(*) FROM trips WHERE date_part('year', pickup_ts) = 2019 AND pickup_ts < '2020-01-01'";
    expect(groundSql(taxiSchema(), 'how many trips in 2019', sql)).toMatchObject({
      kind: 'kept',
      draft: sql,
      assumptions: [],
    });
  });

  it('cuts a LIMIT nobody asked for, keeps one the request asks for', () => {
    const cut = groundSql(
      taxiSchema(),
      'average fare per borough',
      'SELECT pu_borough, AVG(fare_amt) FROM trips GROUP BY pu_borough LIMIT 10',
    );
    expect(cut.draft).toBe('SELECT pu_borough, AVG(fare_amt) FROM trips GROUP BY pu_borough');
    const asked = 'SELECT pu_borough, AVG(fare_amt) AS f FROM trips GROUP BY pu_borough ORDER BY f DESC LIMIT 3';
    expect(groundSql(taxiSchema(), 'the top 3 boroughs by average fare', asked).draft).toBe(asked);
  });

  it("asks when the cut condition was the SQL's only reading of a word the person said", () => {
    const out = groundSql(
      taxiSchema(),
      'trips paid by card per borough',
      "SELECT pu_borough, COUNT(*) FROM trips WHERE payment_type = 'cash' GROUP BY pu_borough",
    );
    expect(out.kind).toBe('ask');
    if (out.kind === 'ask') expect(out.question).toMatch(/'card'.*payment_type = 'cash'/);
  });

  it('PostgreSQL spellings: a cast is not a column, an ILIKE pattern is said without its wildcards', () => {
    const sql = "SELECT full_name FROM drivers WHERE full_name ILIKE 'ha%' AND rating::int >= 4";
    const out = groundSql(taxiSchema(), "drivers whose name starts with 'ha'", sql);
    expect(out.draft).toBe("SELECT full_name FROM drivers WHERE full_name ILIKE 'ha%'");
    expect(out.assumptions).toEqual(["I left out 'rating::int >= 4': nothing in the request asks for it."]);
  });

  it("veloFlux's isnull(x) is a NULL test: it needs a word of absence", () => {
    const sql = 'SELECT status, SUM(quantity) FROM orders WHERE isnull(quantity) GROUP BY status';
    expect(groundSql(demoSchema(), 'quantity per status', sql).draft).toBe(
      'SELECT status, SUM(quantity) FROM orders GROUP BY status',
    );
    expect(groundSql(demoSchema(), 'orders with no quantity per status', sql).draft).toBe(sql);
  });

  it('a sub-query condition on a table the request names stays', () => {
    const sql = 'SELECT full_name FROM drivers d WHERE EXISTS (SELECT 1 FROM trips t WHERE t.driver_id = d.driver_id)';
    expect(groundSql(taxiSchema(), 'drivers who made trips', sql)).toMatchObject({ kind: 'kept', draft: sql });
  });
});
