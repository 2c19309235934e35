/**
 * The demo dataset, generated in code rather than shipped as a file, so DuckDB and PostgreSQL are
 * loaded from the very same rows and eval gold answers stay stable. Nothing here touches a
 * database; `demo-data.ts` (DuckDB) and `../postgres/demo-data.ts` (PostgreSQL) load it.
 *
 * Changing a generator changes every gold answer computed from it: bump
 * {@link DEMO_DATASET_VERSION} when you do.
 */

/** Bumped whenever the generated rows change, so a stale demo file can be recognised. */
export const DEMO_DATASET_VERSION = 1;

/** Column types the demo uses, spelled by each database's own {@link DemoTypeNames}. */
export type DemoColumnType = 'integer' | 'double' | 'text' | 'timestamp' | 'decimal';

/**
 * One cell. Timestamps are `YYYY-MM-DD HH:MM:SS` strings (UTC wall clock, no zone) and decimals
 * are strings like `9.99`, so no float or time-zone conversion happens on the way in.
 */
export type DemoValue = string | number;

export interface DemoColumn {
  name: string;
  type: DemoColumnType;
}

export interface DemoTable {
  name: string;
  columns: DemoColumn[];
  /** Name of the primary-key column, if any. */
  primaryKey?: string;
  rows: DemoValue[][];
}

/** Each database's spelling of the demo's column types, given by its own folder. */
export type DemoTypeNames = Readonly<Record<DemoColumnType, string>>;

/** `CREATE TABLE` for one demo table; both databases accept the same shape. */
export function demoCreateTableSql(table: DemoTable, types: DemoTypeNames): string {
  const cols = table.columns.map((c) => {
    const pk = c.name === table.primaryKey ? ' PRIMARY KEY' : '';
    return `${quoteIdent(c.name)} ${types[c.type]}${pk}`;
  });
  return `CREATE TABLE ${quoteIdent(table.name)} (${cols.join(', ')})`;
}

/**
 * Multi-row `INSERT … VALUES` statements, `batchSize` rows each. Literals rather than parameters
 * because both databases parse them identically, and every value is generated here (escaped all
 * the same).
 */
export function demoInsertSql(table: DemoTable, batchSize = 500): string[] {
  const out: string[] = [];
  const cols = table.columns.map((c) => quoteIdent(c.name)).join(', ');
  for (let i = 0; i < table.rows.length; i += batchSize) {
    const values = table.rows
      .slice(i, i + batchSize)
      .map((row) => `(${row.map((v, j) => literal(v, table.columns[j]?.type ?? 'text')).join(', ')})`);
    out.push(`INSERT INTO ${quoteIdent(table.name)} (${cols}) VALUES ${values.join(', ')}`);
  }
  return out;
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function literal(value: DemoValue, type: DemoColumnType): string {
  switch (type) {
    case 'integer':
    case 'double':
      if (typeof value !== 'number' || !Number.isFinite(value))
        throw new Error(`demo value ${String(value)} is not a finite number`);
      // The shortest round-trip decimal: both databases parse it back to the same double.
      return String(value);
    case 'decimal':
      if (typeof value !== 'string' || !/^-?\d+(\.\d+)?$/.test(value))
        throw new Error(`demo decimal ${String(value)} is malformed`);
      return value;
    case 'timestamp':
      return `TIMESTAMP '${String(value)}'`;
    case 'text':
      return `'${String(value).replace(/'/g, "''")}'`;
  }
}

/** mulberry32: tiny, fast, and identical on every platform, which is all a fixture needs. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Roughly normal noise (Irwin–Hall with 4 uniforms), mean 0, given standard deviation. */
function noise(next: () => number, sd: number): number {
  return ((next() + next() + next() + next() - 2) / Math.sqrt(4 / 12)) * sd;
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  // `+ 0` turns -0 into 0 so it prints the same everywhere.
  return Math.round(x * f) / f + 0;
}

function ts(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19).replace('T', ' ');
}

function pick<T>(next: () => number, items: readonly T[]): T {
  const item = items[Math.floor(next() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

const HOUR = 3_600_000;
const READINGS_START = Date.UTC(2024, 2, 1, 0, 0, 0);
const READING_INTERVAL_S = 180;
const READINGS_PER_DEVICE = (48 * 3600) / READING_INTERVAL_S;

const DEVICES = [
  {
    id: 'dev-01',
    site: 'berlin-lab',
    model: 'TH-200',
    installed: '2023-11-02 09:15:00',
    base: 21.0,
    battery: 97,
    drain: 0.004,
  },
  {
    id: 'dev-02',
    site: 'berlin-lab',
    model: 'TH-200',
    installed: '2023-11-02 09:40:00',
    base: 22.5,
    battery: 88,
    drain: 0.005,
  },
  {
    id: 'dev-03',
    site: 'munich-plant',
    model: 'TH-300',
    installed: '2024-01-15 14:00:00',
    base: 24.0,
    battery: 100,
    drain: 0.003,
  },
  {
    id: 'dev-04',
    site: 'hamburg-port',
    model: 'TH-100',
    installed: '2023-08-21 11:30:00',
    base: 19.5,
    battery: 41,
    drain: 0.024,
  },
  {
    id: 'dev-05',
    site: 'hamburg-port',
    model: 'TH-300',
    installed: '2024-02-01 08:05:00',
    base: 23.0,
    battery: 76,
    drain: 0.006,
  },
] as const;

/**
 * Hot spells (°C added on top of the normal curve), so "above 30" questions have answers:
 * dev-03 on the afternoon of 1 March, dev-05 around noon on 2 March, a short spike on dev-01.
 */
const HOT_SPELLS = [
  { device: 'dev-03', from: Date.UTC(2024, 2, 1, 13, 0), to: Date.UTC(2024, 2, 1, 15, 30), extra: 9.5 },
  { device: 'dev-05', from: Date.UTC(2024, 2, 2, 11, 0), to: Date.UTC(2024, 2, 2, 12, 30), extra: 10.5 },
  { device: 'dev-01', from: Date.UTC(2024, 2, 2, 16, 0), to: Date.UTC(2024, 2, 2, 16, 20), extra: 12 },
] as const;

function hotSpellExtra(device: string, at: number): number {
  let extra = 0;
  for (const spell of HOT_SPELLS) {
    if (spell.device !== device || at < spell.from || at > spell.to) continue;
    // Ramp up over the first 15 minutes so the spell has a shape, not a step.
    extra = Math.max(extra, spell.extra * Math.min(1, (at - spell.from) / (15 * 60_000) + 0.3));
  }
  return extra;
}

function sensorReadings(): DemoTable {
  const next = rng(0x5e45);
  const rows: DemoValue[][] = [];
  for (let i = 0; i < READINGS_PER_DEVICE; i++) {
    DEVICES.forEach((d, k) => {
      // Devices report a few seconds apart and with jitter, as real ones do.
      const at = READINGS_START + (i * READING_INTERVAL_S + k * 11 + Math.floor(next() * 20)) * 1000;
      const hourOfDay = ((at - READINGS_START) / HOUR) % 24;
      const daily = 3 * Math.sin((2 * Math.PI * (hourOfDay - 9)) / 24);
      const temperature = round(d.base + daily + noise(next, 0.4) + hotSpellExtra(d.id, at), 2);
      const humidity = round(Math.min(95, Math.max(15, 55 - (temperature - 22) * 1.6 + noise(next, 2))), 2);
      const battery = Math.max(0, Math.round(d.battery - d.drain * i));
      rows.push([ts(at), d.id, temperature, humidity, battery]);
    });
  }
  return {
    name: 'sensor_readings',
    columns: [
      { name: 'ts', type: 'timestamp' },
      { name: 'device_id', type: 'text' },
      { name: 'temperature', type: 'double' },
      { name: 'humidity', type: 'double' },
      { name: 'battery', type: 'integer' },
    ],
    rows,
  };
}

function devices(): DemoTable {
  return {
    name: 'devices',
    columns: [
      { name: 'device_id', type: 'text' },
      { name: 'site', type: 'text' },
      { name: 'model', type: 'text' },
      { name: 'installed_at', type: 'timestamp' },
    ],
    primaryKey: 'device_id',
    rows: DEVICES.map((d) => [d.id, d.site, d.model, d.installed]),
  };
}

const FIRST_NAMES = [
  'Anna',
  'Ben',
  'Chloé',
  'David',
  'Elif',
  'Finn',
  'Grace',
  'Hugo',
  'Ines',
  'Jonas',
  'Karin',
  'Luca',
  'Maya',
  'Noah',
  "O'Neill",
  'Priya',
];
const LAST_NAMES = [
  'Schmidt',
  'Dubois',
  'de Vries',
  'Smith',
  'García',
  'Rossi',
  'Andersson',
  'Kowalski',
  'Müller',
  'Brown',
];
const COUNTRIES = ['Germany', 'France', 'Netherlands', 'United States', 'Spain', 'Italy', 'Sweden', 'United Kingdom'];
const SEGMENTS = ['consumer', 'consumer', 'consumer', 'small_business', 'small_business', 'enterprise'];
const CUSTOMER_COUNT = 40;

function customers(): DemoTable {
  const next = rng(0xc057);
  const rows: DemoValue[][] = [];
  for (let id = 1; id <= CUSTOMER_COUNT; id++) {
    // Names cycle through both lists at co-prime strides, so all 40 differ.
    const first = FIRST_NAMES[(id * 7) % FIRST_NAMES.length] ?? 'Alex';
    const last = LAST_NAMES[(id * 3) % LAST_NAMES.length] ?? 'Doe';
    rows.push([id, `${first} ${last}`, pick(next, COUNTRIES), pick(next, SEGMENTS)]);
  }
  return {
    name: 'customers',
    columns: [
      { name: 'customer_id', type: 'integer' },
      { name: 'name', type: 'text' },
      { name: 'country', type: 'text' },
      { name: 'segment', type: 'text' },
    ],
    primaryKey: 'customer_id',
    rows,
  };
}

const PRODUCTS = [
  { product: 'USB-C Cable', category: 'electronics', price: '9.99' },
  { product: 'Wireless Mouse', category: 'electronics', price: '24.90' },
  { product: 'Mechanical Keyboard', category: 'electronics', price: '89.00' },
  { product: '27-inch Monitor', category: 'electronics', price: '229.00' },
  { product: 'Noise-Cancelling Headphones', category: 'electronics', price: '179.00' },
  { product: 'Desk Lamp', category: 'home', price: '34.50' },
  { product: 'Coffee Grinder', category: 'home', price: '59.00' },
  { product: 'Office Chair', category: 'home', price: '249.00' },
  { product: 'SQL Cookbook', category: 'books', price: '39.95' },
  { product: 'Streaming Systems', category: 'books', price: '49.99' },
  { product: 'Temperature Sensor TH-100', category: 'sensors', price: '19.90' },
  { product: 'Temperature Sensor TH-300', category: 'sensors', price: '44.90' },
  { product: 'Gateway Hub', category: 'sensors', price: '129.00' },
] as const;
const STATUSES = [
  ...Array<string>(12).fill('delivered'),
  ...Array<string>(3).fill('shipped'),
  ...Array<string>(2).fill('pending'),
  ...Array<string>(2).fill('cancelled'),
  'returned',
];
const ORDER_COUNT = 800;
const ORDERS_START = Date.UTC(2024, 0, 1, 0, 0, 0);
const ORDERS_END = Date.UTC(2024, 3, 1, 0, 0, 0);

function orders(): DemoTable {
  const next = rng(0x0dde5);
  const times = Array.from(
    { length: ORDER_COUNT },
    () => ORDERS_START + Math.floor(next() * ((ORDERS_END - ORDERS_START) / 1000)) * 1000,
  );
  times.sort((a, b) => a - b);
  const rows: DemoValue[][] = times.map((at, i) => {
    // Squaring skews orders towards low customer ids: a few big customers, a long tail.
    const customer = 1 + Math.floor(next() ** 2 * CUSTOMER_COUNT);
    const item = pick(next, PRODUCTS);
    const quantity = 1 + Math.floor(next() ** 2 * 5);
    return [1001 + i, customer, item.product, item.category, quantity, item.price, ts(at), pick(next, STATUSES)];
  });
  return {
    name: 'orders',
    columns: [
      { name: 'order_id', type: 'integer' },
      { name: 'customer_id', type: 'integer' },
      { name: 'product', type: 'text' },
      { name: 'category', type: 'text' },
      { name: 'quantity', type: 'integer' },
      { name: 'unit_price', type: 'decimal' },
      { name: 'ordered_at', type: 'timestamp' },
      { name: 'status', type: 'text' },
    ],
    primaryKey: 'order_id',
    rows,
  };
}

/**
 * The four demo tables, in load order: `sensor_readings` (4,800 readings from 5 devices over 1–2
 * March 2024, with hot spells above 30 °C), `devices`, `customers` (40) and `orders` (800, Q1 2024).
 * Pure and deterministic: every call returns equal data.
 */
export function demoDataset(): DemoTable[] {
  return [sensorReadings(), devices(), customers(), orders()];
}
