import { singular } from './text';
import { wordTable } from './word-table';

/**
 * General English knowledge the linker needs: abbreviations found in column names, words that
 * evoke a kind of measurement, and the words that carry no data. Nothing here names a dataset's
 * tables or values: every entry must hold for any schema.
 */

/** Abbreviation (as found in identifiers, or typed) → the words it stands for. */
export const ABBREVIATIONS: Record<string, string[][]> = wordTable({
  acct: [['account']],
  addr: [['address']],
  alt: [['altitude']],
  amt: [['amount']],
  avg: [['average']],
  bal: [['balance']],
  bat: [['battery']],
  batt: [['battery']],
  cat: [['category']],
  cnt: [['count']],
  ct: [['count']],
  cfg: [['configuration']],
  cust: [['customer']],
  ccy: [['currency']],
  dept: [['department']],
  desc: [['description']],
  dest: [['destination']],
  dist: [['distance']],
  dob: [
    ['date', 'of', 'birth'],
    ['birth', 'date'],
  ],
  dt: [['date'], ['datetime']],
  dur: [['duration']],
  emp: [['employee']],
  env: [['environment']],
  err: [['error']],
  fname: [['first', 'name']],
  hr: [['hour']],
  ht: [['height']],
  hum: [['humidity']],
  id: [['identifier']],
  img: [['image']],
  info: [['information']],
  lat: [['latitude']],
  len: [['length']],
  lng: [['longitude']],
  lon: [['longitude']],
  lname: [['last', 'name']],
  loc: [['location']],
  lvl: [['level']],
  mfr: [['manufacturer']],
  msg: [['message']],
  nbr: [['number']],
  no: [['number']],
  nr: [['number']],
  num: [['number']],
  org: [['organization'], ['organisation']],
  pax: [['passenger']],
  pct: [['percent'], ['percentage']],
  perc: [['percent'], ['percentage']],
  pos: [['position']],
  prc: [['price']],
  prod: [['product']],
  pu: [['pickup']],
  do: [['dropoff']],
  qty: [['quantity']],
  ref: [['reference']],
  rev: [['revenue']],
  sec: [['second']],
  seq: [['sequence']],
  src: [['source']],
  dst: [['destination']],
  temp: [['temperature']],
  tel: [['telephone'], ['phone']],
  tm: [['time']],
  tot: [['total']],
  ts: [['timestamp'], ['time']],
  txn: [['transaction']],
  usr: [['user']],
  ver: [['version']],
  vin: [
    ['vehicle', 'identification', 'number'],
    ['vehicle', 'id'],
  ],
  vol: [['volume']],
  wk: [['week']],
  wt: [['weight']],
  yr: [['year']],
  zip: [
    ['postal', 'code'],
    ['zip', 'code'],
  ],
});

/**
 * Identifier parts that say what kind of column it is rather than what it is about: a request
 * word matching only these is a weak link (`ids`, `time`).
 */
export const GENERIC_PARTS = new Set([
  'id',
  'identifier',
  'at',
  'on',
  'ts',
  'timestamp',
  'time',
  'date',
  'datetime',
  'no',
  'nr',
  'num',
  'number',
  'code',
  'key',
  'type',
  'value',
  'val',
  'flag',
  'is',
  'has',
  'cnt',
  'count',
  'ct',
  // Units as name suffixes (`trip_dist_km`, `price_usd`, `temp_c`): they say how, not what.
  'km',
  'm',
  'cm',
  'mm',
  'kg',
  'g',
  'lb',
  'lbs',
  'usd',
  'eur',
  'gbp',
  'pct',
  'mph',
  'kmh',
  'kph',
  'sec',
  'secs',
  'ms',
  'mins',
  'hrs',
  'c',
  'f',
  'deg',
  'utc',
]);

/**
 * Unit suffixes of identifiers (`freight_usd`, `trip_dist_km`, `capacity_mw`) → the quantity
 * they measure, so a request that names the quantity (`cost`, `how far`, `how heavy`) meets the
 * column through that word's meaning. General knowledge of units, true of any schema.
 */
export const UNIT_QUANTITIES: Record<string, string> = wordTable({
  usd: 'price',
  eur: 'price',
  gbp: 'price',
  jpy: 'price',
  cny: 'price',
  inr: 'price',
  cad: 'price',
  aud: 'price',
  chf: 'price',
  dollars: 'price',
  cents: 'price',
  km: 'distance',
  mi: 'distance',
  miles: 'distance',
  meters: 'distance',
  ft: 'distance',
  kg: 'weight',
  lb: 'weight',
  lbs: 'weight',
  tons: 'weight',
  sec: 'duration',
  secs: 'duration',
  ms: 'duration',
  mins: 'duration',
  hrs: 'duration',
  pct: 'percentage',
  kw: 'power',
  mw: 'power',
  kwh: 'energy',
  mwh: 'energy',
  kmh: 'speed',
  kph: 'speed',
  mph: 'speed',
});

/** Parts that mark a column as a point in time: `ordered_at`, `pickup_ts`, `created_date`. */
export const TEMPORAL_PARTS = new Set(['at', 'ts', 'time', 'timestamp', 'date', 'datetime', 'dt', 'tm', 'when']);

/** Request words asking for a point in time: they link to temporal columns. */
export const TIME_WORDS = new Set(['time', 'times', 'timestamp', 'timestamps', 'when', 'date', 'dates', 'moment']);

/**
 * Words that evoke a measured quantity without naming the column (`hottest`, `30 degrees`,
 * `faster than`): each maps to column words it may mean and, for superlatives, a direction.
 */
export interface Concept {
  columns: string[];
  direction?: 'asc' | 'desc';
}
const concept = (columns: string[], words: string[], direction?: 'asc' | 'desc'): [string, Concept][] =>
  words.map((w) => [w, { columns, direction }]);
const TEMPERATURE = ['temperature', 'temp'];
const SPEED = ['speed', 'velocity'];
const PRICE = ['price', 'cost', 'fare', 'amount'];
export const CONCEPTS = new Map<string, Concept>([
  ...concept(TEMPERATURE, ['hot', 'hotter', 'hottest', 'warm', 'warmer', 'warmest', 'heat'], 'desc'),
  ...concept(TEMPERATURE, ['cold', 'colder', 'coldest', 'cool', 'cooler', 'coolest'], 'asc'),
  ...concept(TEMPERATURE, ['degree', 'degrees', 'celsius', 'fahrenheit', '°c', '°f', '°']),
  ...concept(['humidity'], ['humid', 'humider', 'humidest', 'damp', 'moist'], 'desc'),
  ...concept(['humidity'], ['dry', 'drier', 'driest'], 'asc'),
  ...concept(SPEED, ['fast', 'faster', 'fastest', 'quick', 'quicker', 'quickest'], 'desc'),
  ...concept(SPEED, ['slow', 'slower', 'slowest'], 'asc'),
  ...concept(SPEED, ['mph', 'kmh', 'kph']),
  ...concept(PRICE, ['expensive', 'pricey', 'pricier', 'priciest', 'costly', 'costlier', 'costliest'], 'desc'),
  ...concept(PRICE, ['cheap', 'cheaper', 'cheapest'], 'asc'),
  ...concept(PRICE, ['dollar', 'dollars', 'euro', 'euros', 'usd', 'eur', 'gbp', '$', '€', '£']),
  ...concept(['weight'], ['heavy', 'heavier', 'heaviest', 'kg', 'kilograms', 'pounds', 'lbs', 'tons'], 'desc'),
  ...concept(['weight'], ['light', 'lighter', 'lightest'], 'asc'),
  ...concept(['age'], ['old', 'older', 'oldest'], 'desc'),
  // Younger is less age: `younger than 40` is age < 40, `the youngest` sorts ascending.
  ...concept(['age'], ['young', 'younger', 'youngest'], 'asc'),
  ...concept(['distance', 'length', 'duration'], ['long', 'longer', 'longest', 'far', 'farther', 'farthest'], 'desc'),
  ...concept(['distance', 'length', 'duration'], ['short', 'shorter', 'shortest', 'near', 'nearest'], 'asc'),
  ...concept(['distance'], ['km', 'kilometers', 'kilometres', 'miles', 'meters', 'metres']),
  ...concept(['quantity', 'qty', 'units'], ['units', 'unit', 'items', 'pieces']),
  ...concept(['location', 'position'], ['position', 'positions', 'place', 'coordinates', 'whereabouts']),
  ...concept(['latitude', 'lat'], ['north', 'south']),
  ...concept(['longitude', 'lon', 'lng'], ['east', 'west']),
]);

/** Articles, pronouns, prepositions, auxiliaries: never a link on their own. */
export const FUNCTION_WORDS = new Set(
  `a an the of in on at to for from by with without within into onto over under about as and or nor but if
  is are was were be been being am do does did done doing have has had having will would shall should can could may might must
  i me my we our us you your he she it its they them their this that these those there here what which who whom whose when where why how
  all any each every some no not none only just also still ever even again once twice than then so such very too more most less least
  much many few fewer lot lots own same other another either neither both per via up down out off
  along across among between throughout during since until till after before whether while please`.split(/\s+/),
);

/**
 * Verbs common in requests: not a column or table on their own (a catalog value may still be
 * spelled like one, `returned`), and never a reason to ask the person what they mean.
 */
export const REQUEST_VERBS = new Set(
  `show shows showing list lists listing give giving gives given return returns find get gets got tell display select fetch
  compute calculate want need like let see look know print provide
  make made send sent sold sell sells selling buy bought spent spend spends place placed put take took came come comes go going went
  brought bring earn earned record recorded report reported emit emits forward forwarding keep kept drive driving driven belong belongs
  happen happened occur occurred produce produced generate generated log logged register registered receive received contain contains
  exist exists existing located locate include includes including appear appears went goes did
  pay pays paid paying pick picks picked drop drops dropped use uses used travel travels travelled traveled ride rides rode
  charged visit visited create created update updated finish finished open opened sign signed join joined
  leave left rate rated stay stayed work worked live lives lived happen happens become became break broke cause caused
  run runs ran reach reached hit hits describe describes explain explains split`.split(/\s+/),
);

/**
 * Words that only say data is related (`the corresponding documents`, `their respective
 * owners`): which tables and how they join is the readings' to decide, from what the request names.
 */
export const RELATED_WORDS: ReadonlySet<string> = new Set(['corresponding', 'respective', 'relevant']);

/**
 * Nouns that stand for "the data" in general (`records`, `in the database`): linked when a
 * catalog name matches, never unknown; and the words that only say data is related. Not so
 * `table` and `based on` (said to tell which tables to join).
 */
export const FILLER_WORDS = new Set([
  ...`row rows record records entry entries item data information info result results value values figure figures level levels
  thing things stuff one ones total totals number numbers amount amounts overall altogether
  first last start starting starts end ending beginning together separately respectively everything anything
  question answer detail details reading readings event events message messages sample samples measurement measurements
  observation observations datapoint datapoints point points line lines
  database databases`.split(/\s+/),
  ...RELATED_WORDS,
]);

/** Words that are part of a cue (aggregates, order, time, comparison) rather than content. */
export const CUE_WORDS = new Set(
  `average avg mean median maximum max highest peak minimum min lowest sum total count distinct different unique
  top bottom best worst biggest largest greatest smallest recent newest latest oldest earliest
  above below over under greater less lower higher exceeds exceed exceeding exceeded least most equal equals exactly
  between except excluding exclude other than neither nor not never without
  hourly daily weekly monthly yearly annually quarterly
  second seconds minute minutes hour hours day days week weeks month months quarter quarters year years
  window windows bucket buckets interval intervals sliding tumbling rolling moving period periods
  monday tuesday wednesday thursday friday saturday sunday weekday weekdays weekend weekends
  morning afternoon evening night noon midnight today yesterday tomorrow
  percent percentage ascending descending asc desc order ordered sorted sort rank ranked
  times multiplied divided plus minus product wise grouped group`.split(/\s+/),
);

/**
 * Words that change the answer whenever they are said: every cue, and the words of comparisons
 * between rows or sets that the plan language has no link for. One of them left unread means the
 * plan answers another question (`ratio of …`, `on weekends`, `in both …`).
 */
export const ANSWER_CUES = new Set([
  ...CUE_WORDS,
  ...`ratio ratios proportion proportions fraction share difference differences change changes growth increase
  decrease cumulative running previous next both either same never`.split(/\s+/),
]);

/** Order words: said again beside an order link, they add nothing (`sort … in descending order`). */
export const ORDER_CUES = new Set(
  'order ordered sorted sort sorting rank ranked ranking ascending descending asc desc'.split(' '),
);

/** Time units and buckets (singular): said again beside a time grouping or range, they add nothing. */
export const TIME_UNIT_CUES = new Set(
  'second minute hour day week month quarter year bucket window interval period start'.split(' '),
);

/** Comparison words that are also prepositions: a comparison only with a number after them. */
export const PREPOSITION_CUES = new Set(['over', 'under', 'above', 'below']);

/** Words that can never be a value or a column link on their own, however a catalog spells them. */
export const NEVER_VALUE = new Set([
  'a',
  'an',
  'the',
  'of',
  'in',
  'on',
  'and',
  'or',
  'to',
  'is',
  'it',
  'i',
  'me',
  'us',
]);

/** Why a token no link covers carries no data (the lexicon's word sets, or punctuation). */
export const FILLER_REASONS = ['function_word', 'request_verb', 'filler_noun', 'cue_word', 'punctuation'] as const;
export type FillerReason = (typeof FILLER_REASONS)[number];

/**
 * Why a word carries no data, by the lexicon; null: it may. The word as it is first (`records` is
 * a filler noun before it is an inflected `record`), then its plural and inflected forms.
 */
export function fillerReason(word: string): FillerReason | null {
  const w = word.toLowerCase();
  if (FUNCTION_WORDS.has(w) || /n['’]t$/.test(w)) return 'function_word';
  if (REQUEST_VERBS.has(w)) return 'request_verb';
  if (FILLER_WORDS.has(w)) return 'filler_noun';
  if (CUE_WORDS.has(w)) return 'cue_word';
  const s = singular(w);
  if (FILLER_WORDS.has(s)) return 'filler_noun';
  if (CUE_WORDS.has(s)) return 'cue_word';
  if (inflectedRequestVerb(w)) return 'request_verb';
  return null;
}

/** A request verb inflected (`getting`, `sending`, `shows`), as the linker tells them. */
function inflectedRequestVerb(w: string): boolean {
  const base = w.replace(/(ing|ed|s)$/, '');
  return (
    base !== w &&
    (REQUEST_VERBS.has(base) || REQUEST_VERBS.has(`${base}e`) || REQUEST_VERBS.has(base.replace(/(.)\1$/, '$1')))
  );
}

/** Verbs a yes/no column's name may begin with (`is_open`, `has_auto_gearbox`), read away as well. */
export const BOOLEAN_PREFIXES: ReadonlySet<string> = new Set([
  'is',
  'has',
  'was',
  'can',
  'does',
  'did',
  'are',
  'have',
  'had',
]);
