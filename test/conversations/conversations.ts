import type { LlmScript } from '../support/llm-script';

/** One turn of a conversation: what the person sends, and what the turn must stop at. */
export interface Turn {
  say: { text?: string; feedback?: string; confirm?: boolean };
  /** The interrupt the turn stops at (null: none, the turn ended). */
  stops: 'need_clarification' | 'need_confirm' | null;
  /** For a clarification: the kind of slot it asked about. */
  asked?: string;
  /** Part of the question or message shown. */
  says?: RegExp;
  /** The SQL this turn must show, when it is not the conversation's last. */
  sql?: string;
  /** One of the turn's assumptions (a reused plan says so there). */
  assumes?: RegExp;
}

export interface Conversation {
  name: string;
  /** The data it is held over: the demo database (`npm start`), or the trips schema the suite creates. */
  schema: 'demo' | 'trips';
  /**
   * `reply`: a clarification answered; `edit`: feedback on a plan; `flag`: a plan flagged before
   * confirm; `reuse`: a confirmed question asked again with other values.
   */
  kind: 'reply' | 'edit' | 'flag' | 'reuse';
  turns: Turn[];
  /** The model's answers, for the turns that reach it (the scripted server at its HTTP boundary). */
  llm?: (script: LlmScript) => void;
  /** The final SQL exactly, and a reference query written independently whose rows it must return. */
  sql: string | null;
  reference?: string;
  /** The rows' order matters (ORDER BY): the column whose values must come in the reference's order (ties may swap rows). */
  ordered?: number;
  /** Warnings the final view must carry (flag conversations). */
  warnings?: RegExp[];
}

const ask = (text: string, asked: string, says?: RegExp): Turn => ({
  say: { text },
  stops: 'need_clarification',
  asked,
  ...(says ? { says } : {}),
});
const answer = (text: string): Turn => ({ say: { text }, stops: 'need_confirm' });
const feedback = (text: string): Turn => ({ say: { feedback: text }, stops: 'need_confirm' });
const confirm: Turn = { say: { confirm: true }, stops: null };

const AVG_TEMP_PER_DEVICE =
  'SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_readings GROUP BY device_id';
const REF_AVG_TEMP_PER_DEVICE = 'SELECT device_id, avg(temperature) FROM sensor_readings GROUP BY 1';
const REVENUE_PER_COUNTRY =
  'SELECT customers.country, sum(orders.quantity * orders.unit_price) AS sum_revenue FROM orders JOIN customers ON orders.customer_id = customers.customer_id GROUP BY customers.country';
const REF_REVENUE_PER_COUNTRY =
  'SELECT c.country, sum(o.quantity * o.unit_price) FROM orders o, customers c WHERE o.customer_id = c.customer_id GROUP BY 1';

/** Clarification → reply → answer, on the demo data and on the trips schema. */
const REPLIES: Conversation[] = [
  {
    name: 'an unknown measure answered with a column name',
    schema: 'demo',
    kind: 'reply',
    turns: [ask('average wind speed per device', 'word', /could not find 'wind speed'/), answer('I meant temperature')],
    sql: AVG_TEMP_PER_DEVICE,
    reference: REF_AVG_TEMP_PER_DEVICE,
  },
  {
    name: "an unknown measure answered with the choice's number",
    schema: 'demo',
    kind: 'reply',
    turns: [ask('average wind speed per device', 'word'), answer('7')],
    sql: AVG_TEMP_PER_DEVICE,
    reference: REF_AVG_TEMP_PER_DEVICE,
  },
  {
    name: 'an unknown measure answered in another case and with trailing words',
    schema: 'demo',
    kind: 'reply',
    turns: [ask('maximum wind speed per device', 'word'), answer('Humidity, please')],
    sql: 'SELECT device_id, max(humidity) AS max_humidity FROM sensor_readings GROUP BY device_id',
    reference: 'SELECT device_id, max(humidity) FROM sensor_readings GROUP BY 1',
  },
  {
    name: 'a missing measure answered with a definition; the join and the grouping stay',
    schema: 'demo',
    kind: 'reply',
    turns: [ask('total revenue per country', 'word'), answer('revenue is quantity times unit price')],
    sql: REVENUE_PER_COUNTRY,
    reference: REF_REVENUE_PER_COUNTRY,
  },
  {
    name: 'a missing measure answered with an expression',
    schema: 'demo',
    kind: 'reply',
    turns: [ask('total revenue per country', 'word'), answer('quantity times unit price')],
    sql: REVENUE_PER_COUNTRY,
    reference: REF_REVENUE_PER_COUNTRY,
  },
  {
    name: 'a word for a table answered with the table',
    schema: 'demo',
    kind: 'reply',
    turns: [ask('how many beacons per site', 'word'), answer('devices')],
    sql: 'SELECT site, count(DISTINCT device_id) AS count_distinct_device_id FROM devices GROUP BY site',
    reference: 'SELECT site, count(*) FROM devices GROUP BY site',
  },
  {
    name: 'a word for a value answered with the value',
    schema: 'demo',
    kind: 'reply',
    turns: [ask('count the broken orders', 'word'), answer('the cancelled ones')],
    sql: "SELECT count(*) AS count FROM orders WHERE status = 'cancelled'",
    reference: "SELECT count(*) FROM orders WHERE status = 'cancelled'",
  },
  {
    name: 'a gradable word asks for a threshold; a number answers it',
    schema: 'demo',
    kind: 'reply',
    turns: [
      ask('average humidity per device where the temperature is high', 'threshold', /What counts as 'high'/),
      answer('above 24'),
    ],
    sql: 'SELECT device_id, avg(humidity) AS avg_humidity FROM sensor_readings WHERE temperature > 24 GROUP BY device_id',
    reference: 'SELECT device_id, avg(humidity) FROM sensor_readings WHERE temperature > 24 GROUP BY 1',
  },
  {
    name: '"never mind" drops the request',
    schema: 'demo',
    kind: 'reply',
    turns: [
      ask('average wind speed per device', 'word'),
      { say: { text: 'never mind' }, stops: null, says: /Dropped/ },
    ],
    sql: null,
  },
  {
    name: 'a reply that names nothing is asked again with the reason; the next reply answers',
    schema: 'demo',
    kind: 'reply',
    turns: [
      ask('average wind speed per device', 'word'),
      {
        say: { text: 'the anemometer' },
        stops: 'need_clarification',
        asked: 'word',
        says: /could not find 'anemometer'.*so I cannot use that reply/s,
      },
      answer('temperature'),
    ],
    sql: AVG_TEMP_PER_DEVICE,
    reference: REF_AVG_TEMP_PER_DEVICE,
  },
  {
    name: 'a reply that says the whole request again replaces it',
    schema: 'demo',
    kind: 'reply',
    turns: [ask('average wind speed per device', 'word'), answer('average humidity per device')],
    sql: 'SELECT device_id, avg(humidity) AS avg_humidity FROM sensor_readings GROUP BY device_id',
    reference: 'SELECT device_id, avg(humidity) FROM sensor_readings GROUP BY 1',
  },
  {
    name: 'what a reply resolved is remembered in the session: the next request uses it without asking',
    schema: 'demo',
    kind: 'reply',
    turns: [
      ask('average wind speed per device', 'word'),
      { ...answer('temperature'), sql: AVG_TEMP_PER_DEVICE },
      confirm,
      answer('maximum wind speed per device'),
    ],
    sql: 'SELECT device_id, max(temperature) AS max_temperature FROM sensor_readings GROUP BY device_id',
    reference: 'SELECT device_id, max(temperature) FROM sensor_readings GROUP BY 1',
  },
  {
    name: 'a definition is reused by a later request of the session',
    schema: 'demo',
    kind: 'reply',
    turns: [
      ask('total revenue per country', 'word'),
      { ...answer('revenue is quantity times unit price'), sql: REVENUE_PER_COUNTRY },
      confirm,
      answer('total revenue per category'),
    ],
    sql: 'SELECT category, sum(quantity * unit_price) AS sum_revenue FROM orders GROUP BY category',
    reference: 'SELECT category, sum(quantity * unit_price) FROM orders GROUP BY 1',
  },
  {
    name: "a model's own question is answered with the whole request",
    schema: 'demo',
    kind: 'reply',
    llm: (s) => s.route({ intent: 'ask_user', stream: null, question: 'What would you like to compute?' }),
    turns: [
      ask('Show me the data.', 'open', /What would you like to compute/),
      answer('average temperature per device'),
    ],
    sql: AVG_TEMP_PER_DEVICE,
    reference: REF_AVG_TEMP_PER_DEVICE,
  },
  {
    name: 'trips: an unknown measure answered with a sum of two columns',
    schema: 'trips',
    kind: 'reply',
    turns: [ask('average earnings per driver', 'word'), answer('fare plus tip')],
    sql: 'SELECT driver, avg(fare + tip) AS avg_earnings FROM trips GROUP BY driver',
    reference: 'SELECT driver, avg(fare + tip) FROM trips GROUP BY 1',
  },
  {
    name: 'trips: a gradable word answered with a bound',
    schema: 'trips',
    kind: 'reply',
    turns: [ask('count the trips per city where the distance is large', 'threshold'), answer('more than 15 km')],
    sql: 'SELECT city, count(*) AS count FROM trips WHERE distance_km > 15 GROUP BY city',
    reference: 'SELECT city, count(*) FROM trips WHERE distance_km > 15 GROUP BY 1',
  },
  {
    name: 'trips: an unknown word answered with a column of another spelling',
    schema: 'trips',
    kind: 'reply',
    turns: [ask('average surcharge per city', 'word'), answer('the tips')],
    sql: 'SELECT city, avg(tip) AS avg_tip FROM trips GROUP BY city',
    reference: 'SELECT city, avg(tip) FROM trips GROUP BY 1',
  },
];

const HOT = 'average temperature per device every 10 seconds, only above 30';
const HOT_PER_DEVICE = 'average temperature per device, only above 30';

/** Feedback edits of each kind, and flags before a confirm. */
const EDITS: Conversation[] = [
  {
    name: 'the README walk-through: "use 35 degrees instead" replaces the threshold',
    schema: 'demo',
    kind: 'edit',
    turns: [answer(HOT), feedback('use 35 degrees instead')],
    sql: "SELECT device_id, time_bucket(INTERVAL '10 seconds', ts) AS bucket_start, avg(temperature) AS avg_temperature FROM sensor_readings WHERE temperature > 35 GROUP BY time_bucket(INTERVAL '10 seconds', ts), device_id",
    reference:
      'SELECT device_id, time_bucket(INTERVAL 10 SECOND, ts), avg(temperature) FROM sensor_readings WHERE temperature > 35 GROUP BY 1, 2',
  },
  {
    name: '"at least 28" replaces the operator and the number',
    schema: 'demo',
    kind: 'edit',
    turns: [answer(HOT_PER_DEVICE), feedback('at least 28')],
    sql: 'SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_readings WHERE temperature >= 28 GROUP BY device_id',
    reference: 'SELECT device_id, avg(temperature) FROM sensor_readings WHERE temperature >= 28 GROUP BY 1',
  },
  {
    name: '"also per device" adds a grouping',
    schema: 'demo',
    kind: 'edit',
    turns: [answer('average temperature'), feedback('also per device')],
    sql: AVG_TEMP_PER_DEVICE,
    reference: REF_AVG_TEMP_PER_DEVICE,
  },
  {
    name: '"only dev-01 and dev-03" adds a condition',
    schema: 'demo',
    kind: 'edit',
    turns: [answer('average temperature per device'), feedback('only dev-01 and dev-03')],
    sql: "SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_readings WHERE device_id IN ('dev-01', 'dev-03') GROUP BY device_id",
    reference:
      "SELECT device_id, avg(temperature) FROM sensor_readings WHERE device_id = 'dev-01' OR device_id = 'dev-03' GROUP BY 1",
  },
  {
    name: '"exclude dev-02" leaves a value out',
    schema: 'demo',
    kind: 'edit',
    turns: [answer('average temperature per device'), feedback('exclude dev-02')],
    sql: "SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_readings WHERE device_id NOT IN ('dev-02') GROUP BY device_id",
    reference: "SELECT device_id, avg(temperature) FROM sensor_readings WHERE device_id <> 'dev-02' GROUP BY 1",
  },
  {
    name: '"drop the humidity" removes a column',
    schema: 'demo',
    kind: 'edit',
    turns: [answer('average temperature and humidity per device'), feedback('drop the humidity')],
    sql: AVG_TEMP_PER_DEVICE,
    reference: REF_AVG_TEMP_PER_DEVICE,
  },
  {
    name: '"remove the temperature filter" removes a condition',
    schema: 'demo',
    kind: 'edit',
    turns: [answer(HOT_PER_DEVICE), feedback('remove the temperature filter')],
    sql: AVG_TEMP_PER_DEVICE,
    reference: REF_AVG_TEMP_PER_DEVICE,
  },
  {
    name: '"sort by newest" on groups orders by their latest time',
    schema: 'demo',
    kind: 'edit',
    turns: [answer('average temperature per device'), feedback('sort by newest')],
    sql: 'SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_readings GROUP BY device_id ORDER BY max(ts) DESC',
    reference: 'SELECT device_id, avg(temperature) FROM sensor_readings GROUP BY 1 ORDER BY max(ts) DESC',
    ordered: 0,
  },
  {
    name: '"sort by quantity descending" orders by the aggregate shown',
    schema: 'demo',
    kind: 'edit',
    turns: [answer('total quantity per product'), feedback('sort by quantity descending')],
    sql: 'SELECT product, sum(quantity) AS sum_quantity FROM orders GROUP BY product ORDER BY sum_quantity DESC',
    reference: 'SELECT product, sum(quantity) AS q FROM orders GROUP BY 1 ORDER BY q DESC',
    ordered: -1,
  },
  {
    name: 'two edits in one feedback: a threshold and an order',
    schema: 'demo',
    kind: 'edit',
    turns: [answer(HOT_PER_DEVICE), feedback('use 25 instead and sort by newest')],
    sql: 'SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_readings WHERE temperature > 25 GROUP BY device_id ORDER BY max(ts) DESC',
    reference:
      'SELECT device_id, avg(temperature) FROM sensor_readings WHERE temperature > 25 GROUP BY 1 ORDER BY max(ts) DESC',
    ordered: 0,
  },
  {
    name: 'edits one after another keep what the earlier ones did',
    schema: 'demo',
    kind: 'edit',
    turns: [answer(HOT_PER_DEVICE), feedback('use 25 instead'), feedback('only dev-01 and dev-03')],
    sql: "SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_readings WHERE temperature > 25 AND device_id IN ('dev-01', 'dev-03') GROUP BY device_id",
    reference:
      "SELECT device_id, avg(temperature) FROM sensor_readings WHERE temperature > 25 AND device_id IN ('dev-01', 'dev-03') GROUP BY 1",
  },
  {
    name: 'trips: "only Berlin and Paris" adds a condition',
    schema: 'trips',
    kind: 'edit',
    turns: [answer('total fare per city'), feedback('only Berlin and Paris')],
    sql: "SELECT city, sum(fare) AS sum_fare FROM trips WHERE city IN ('Berlin', 'Paris') GROUP BY city",
    reference: "SELECT city, sum(fare) FROM trips WHERE city IN ('Paris', 'Berlin') GROUP BY 1",
  },
  {
    name: 'trips: "also per driver" adds a grouping',
    schema: 'trips',
    kind: 'edit',
    turns: [answer('average distance per city'), feedback('also per driver')],
    sql: 'SELECT city, driver, avg(distance_km) AS avg_distance_km FROM trips GROUP BY city, driver',
    reference: 'SELECT city, driver, avg(distance_km) FROM trips GROUP BY 1, 2',
  },
  {
    name: 'trips: "sort by fare descending"',
    schema: 'trips',
    kind: 'edit',
    turns: [answer('total fare per driver'), feedback('sort by fare descending')],
    sql: 'SELECT driver, sum(fare) AS sum_fare FROM trips GROUP BY driver ORDER BY sum_fare DESC',
    reference: 'SELECT driver, sum(fare) AS f FROM trips GROUP BY 1 ORDER BY f DESC',
    ordered: -1,
  },
  {
    name: 'feedback beyond the rules goes to the model with the plan, and its plan is used',
    schema: 'demo',
    kind: 'edit',
    llm: (s) =>
      s.plan({
        table: 'sensor_readings',
        columns: ['device_id'],
        aggregates: [{ fn: 'max', of: 'temperature', distinct: false }],
        filters: [],
        group_by: ['device_id'],
        time: null,
        order: null,
        limit: null,
      }),
    turns: [answer('average temperature per device'), feedback('the peak value rather than the mean')],
    sql: 'SELECT device_id, max(temperature) AS max_temperature FROM sensor_readings GROUP BY device_id',
    reference: 'SELECT device_id, max(temperature) FROM sensor_readings GROUP BY 1',
  },
  {
    name: "a model's revision that keeps the replaced threshold beside the new one is refused; the next is used",
    schema: 'demo',
    kind: 'edit',
    llm: (s) => {
      const plan = (filters: unknown[]) => ({
        table: 'sensor_readings',
        columns: ['device_id'],
        aggregates: [{ fn: 'avg', of: 'temperature', distinct: false }],
        filters,
        group_by: ['device_id'],
        time: null,
        order: null,
        limit: null,
      });
      s.plan(
        plan([
          { column: 'temperature', op: '>', value: 35 },
          { column: 'temperature', op: '>', value: 30 },
        ]),
        plan([{ column: 'temperature', op: '>', value: 35 }]),
      );
    },
    turns: [answer(HOT_PER_DEVICE), feedback('35 would be better')],
    sql: 'SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_readings WHERE temperature > 35 GROUP BY device_id',
    reference: 'SELECT device_id, avg(temperature) FROM sensor_readings WHERE temperature > 35 GROUP BY 1',
  },
];

const FLAGS: Conversation[] = [
  {
    name: 'a change that returns no rows where the query before returned some is flagged before confirm',
    schema: 'demo',
    kind: 'flag',
    turns: [answer('average temperature per device'), feedback('only where temperature is above 100')],
    sql: 'SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_readings WHERE temperature > 100 GROUP BY device_id',
    reference: 'SELECT device_id, avg(temperature) FROM sensor_readings WHERE temperature > 100 GROUP BY 1',
    warnings: [/returns no rows, where the query before your change returned 5/],
  },
  {
    name: "contradicting conditions from the model's revision are flagged with the reason",
    schema: 'demo',
    kind: 'flag',
    llm: (s) =>
      s.plan({
        table: 'sensor_readings',
        columns: ['device_id'],
        aggregates: [{ fn: 'avg', of: 'temperature', distinct: false }],
        filters: [
          { column: 'temperature', op: '>', value: 30 },
          { column: 'temperature', op: 'is_null', value: null },
        ],
        group_by: ['device_id'],
        time: null,
        order: null,
        limit: null,
      }),
    turns: [answer(HOT_PER_DEVICE), feedback('keep the rows that have no reading as well')],
    sql: 'SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_readings WHERE temperature > 30 AND temperature IS NULL GROUP BY device_id',
    reference: 'SELECT device_id, avg(temperature) FROM sensor_readings WHERE false GROUP BY 1',
    warnings: [/temperature > 30 and temperature IS NULL cannot both hold/, /returns no rows/],
  },
  {
    name: 'trips: a threshold no trip reaches empties the result and is flagged',
    schema: 'trips',
    kind: 'flag',
    turns: [answer('count the trips per city with a distance above 5 km'), feedback('use 500 instead')],
    sql: 'SELECT city, count(*) AS count FROM trips WHERE distance_km > 500 GROUP BY city',
    reference: 'SELECT city, count(*) FROM trips WHERE distance_km > 500 GROUP BY 1',
    warnings: [/returns no rows, where the query before your change returned 4/],
  },
];

/** A confirmed question asked again with other values: its confirmed plan, with the new values. */
const REUSES: Conversation[] = [
  {
    name: 'a confirmed question asked again with another threshold reuses its plan',
    schema: 'demo',
    kind: 'reuse',
    turns: [
      answer('average temperature per device, only above 30'),
      confirm,
      { ...answer('average temperature per device, only above 25'), assumes: /^Reused your earlier question 'average temperature per device, only above 30' with 25 instead of 30\.$/ },
    ],
    sql: 'SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_readings WHERE temperature > 25 GROUP BY device_id',
    reference: 'SELECT device_id, avg(temperature) FROM sensor_readings WHERE temperature > 25 GROUP BY 1',
  },
  {
    name: 'trips: a confirmed question with its edit, asked again with another threshold, keeps the edit',
    schema: 'trips',
    kind: 'reuse',
    turns: [
      answer('count the trips per city with a distance above 5 km'),
      feedback('also per driver'),
      confirm,
      { ...answer('count the trips per city with a distance above 10 km'), assumes: /with 10 instead of 5\.$/ },
    ],
    sql: 'SELECT city, driver, count(*) AS count FROM trips WHERE distance_km > 10 GROUP BY city, driver',
    reference: 'SELECT city, driver, count(*) FROM trips WHERE distance_km > 10 GROUP BY 1, 2',
  },
  {
    name: 'trips: a confirmed question asked again about another value of the data',
    schema: 'trips',
    kind: 'reuse',
    turns: [
      answer('average fare per driver for trips in Paris'),
      confirm,
      { ...answer('average fare per driver for trips in Madrid'), assumes: /with 'Madrid' instead of 'Paris'\.$/ },
    ],
    sql: "SELECT driver, avg(fare) AS avg_fare FROM trips WHERE city = 'Madrid' GROUP BY driver",
    reference: "SELECT driver, avg(fare) FROM trips WHERE city = 'Madrid' GROUP BY 1",
  },
]; // prettier-ignore

export const CONVERSATIONS: readonly Conversation[] = [...REPLIES, ...EDITS, ...FLAGS, ...REUSES];
