import type { QueryPlanInput } from '@nl2p/query-plan';

/**
 * Cross-source requests over the demo data split across two engines (`shop`: orders and
 * sensor_readings in DuckDB; `crm`: customers and devices in PostgreSQL). Each carries the typed
 * plan a server model in plan mode gives over source-qualified tables (the linker does not read
 * cross-source requests yet) and either gold SQL, run on one DuckDB holding all four tables, or
 * the question the product must ask. Variants: `messy` spells the crm keys differently (padded
 * text ids, upper-case device ids with a space); `bad` holds customer ids no rule reconciles;
 * `ambiguous` adds a third source holding customers and orders too.
 */
export interface CrossSourceItem {
  id: string;
  /** What a person types: the request-reading runner sends exactly this. */
  request: string;
  /** What the variant changes, for the reports (never sent). */
  note?: string;
  /** The plan the plan-given runner starts from; absent for items only the request-reading runner has. */
  plan?: QueryPlanInput;
  gold?: string;
  /** The request asks for an order ('highest first'): the request-reading run compares rows in order. */
  ordered?: boolean;
  expect: 'answer' | 'clarify';
  /** For `clarify` items: what the question must be about (a pattern), so a question for another reason is told apart. */
  asks?: string;
  variant?: 'split' | 'messy' | 'bad' | 'ambiguous';
  rowLimit?: number;
}

const O = 'shop.orders';
const C = 'crm.customers';
const R = 'shop.sensor_readings';
const D = 'crm.devices';
const ref = (table: string, column: string) => ({ table, column });
const v = (table: string, column: string, alias: string | null = null) => ({ kind: 'value' as const, expr: { kind: 'column' as const, ref: ref(table, column) }, alias }); // prettier-ignore
const colE = (table: string, column: string) => ({ kind: 'column' as const, ref: ref(table, column) });
const revenue = { kind: 'arith' as const, op: '*' as const, left: colE(O, 'quantity'), right: colE(O, 'unit_price') };
const agg = (fn: 'count' | 'sum' | 'avg' | 'min' | 'max', arg: unknown, alias: string, distinct = false) => ({ kind: 'aggregate' as const, aggregate: { fn, arg: arg as null, distinct }, alias }); // prettier-ignore
const eq = (table: string, column: string, value: string) => ({ kind: 'compare' as const, left: colE(table, column), op: '=' as const, value: { kind: 'string' as const, value } }); // prettier-ignore
const num = (table: string, column: string, op: '>' | '>=' | '<', value: number) => ({ kind: 'compare' as const, left: colE(table, column), op, value: { kind: 'number' as const, value } }); // prettier-ignore
const and = (...conditions: unknown[]) => ({ kind: 'and' as const, conditions: conditions as never[] });
const asc = (index: number) => ({ key: { kind: 'output' as const, index }, direction: 'asc' as const });
const desc = (index: number) => ({ key: { kind: 'output' as const, index }, direction: 'desc' as const });
const OC = { source: O, joins: [{ table: C, on: [{ left: ref(O, 'customer_id'), right: ref(C, 'customer_id') }] }] };
const RD = { source: R, joins: [{ table: D, on: [{ left: ref(R, 'device_id'), right: ref(D, 'device_id') }] }] };
const OCsql = 'FROM orders o JOIN customers c ON o.customer_id = c.customer_id';
const RDsql = 'FROM sensor_readings r JOIN devices d ON r.device_id = d.device_id';

export const CROSS_SOURCE_SET: CrossSourceItem[] = [
  { id: 'x01', expect: 'answer', ordered: true, request: 'total order value per customer country, highest first',
    plan: { ...OC, select: [v(C, 'country'), agg('sum', revenue, 'revenue')], group_by: [ref(C, 'country')], order_by: [desc(1), asc(0)] },
    gold: `SELECT c.country, sum(o.quantity * o.unit_price) AS revenue ${OCsql} GROUP BY 1 ORDER BY 2 DESC, 1` },
  { id: 'x02', expect: 'answer', request: 'how many orders per customer segment',
    plan: { ...OC, select: [v(C, 'segment'), agg('count', null, 'orders')], group_by: [ref(C, 'segment')], order_by: [asc(0)] },
    gold: `SELECT c.segment, count(*) ${OCsql} GROUP BY 1 ORDER BY 1` },
  { id: 'x03', expect: 'answer', request: 'the 5 customers with the most orders',
    plan: { ...OC, select: [v(C, 'name'), agg('count', null, 'orders')], group_by: [ref(C, 'name')], order_by: [desc(1), asc(0)], limit: 5 },
    gold: `SELECT c.name, count(*) ${OCsql} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5` },
  { id: 'x04', expect: 'answer', request: 'average quantity of delivered orders per country',
    plan: { ...OC, select: [v(C, 'country'), agg('avg', colE(O, 'quantity'), 'avg_quantity')], where: eq(O, 'status', 'delivered'), group_by: [ref(C, 'country')], order_by: [asc(0)] },
    gold: `SELECT c.country, avg(o.quantity) ${OCsql} WHERE o.status = 'delivered' GROUP BY 1 ORDER BY 1` },
  { id: 'x05', expect: 'answer', request: 'how many orders came from customers in Germany',
    plan: { ...OC, select: [agg('count', null, 'orders')], where: eq(C, 'country', 'Germany') },
    gold: `SELECT count(*) ${OCsql} WHERE c.country = 'Germany'` },
  { id: 'x06', expect: 'answer', request: 'electronics revenue from enterprise customers',
    plan: { ...OC, select: [agg('sum', revenue, 'revenue')], where: and(eq(O, 'category', 'electronics'), eq(C, 'segment', 'enterprise')) },
    gold: `SELECT sum(o.quantity * o.unit_price) ${OCsql} WHERE o.category = 'electronics' AND c.segment = 'enterprise'` },
  { id: 'x07', expect: 'answer', request: 'countries with more than 20 orders',
    plan: { ...OC, select: [v(C, 'country'), agg('count', null, 'orders')], group_by: [ref(C, 'country')], having: [{ aggregate: { fn: 'count' }, op: '>', value: 20 }], order_by: [asc(0)] },
    gold: `SELECT c.country, count(*) ${OCsql} GROUP BY 1 HAVING count(*) > 20 ORDER BY 1` },
  { id: 'x08', expect: 'answer', request: 'which products did customers in France order',
    plan: { ...OC, select: [v(O, 'product')], distinct: true, where: eq(C, 'country', 'France'), order_by: [asc(0)] },
    gold: `SELECT DISTINCT o.product ${OCsql} WHERE c.country = 'France' ORDER BY 1` },
  { id: 'x09', expect: 'answer', request: 'monthly order value from consumer customers',
    plan: { ...OC, select: [{ kind: 'bucket', alias: 'month' }, agg('sum', revenue, 'revenue')], where: eq(C, 'segment', 'consumer'), time_bucket: { column: ref(O, 'ordered_at'), unit: 'month' }, order_by: [asc(0)] },
    gold: `SELECT date_trunc('month', o.ordered_at) AS month, sum(o.quantity * o.unit_price) ${OCsql} WHERE c.segment = 'consumer' GROUP BY 1 ORDER BY 1` },
  { id: 'x10', expect: 'answer', request: 'cancelled orders per country',
    plan: { ...OC, select: [v(C, 'country'), agg('count', null, 'cancelled')], where: eq(O, 'status', 'cancelled'), group_by: [ref(C, 'country')], order_by: [asc(0)] },
    gold: `SELECT c.country, count(*) ${OCsql} WHERE o.status = 'cancelled' GROUP BY 1 ORDER BY 1` },
  { id: 'x11', expect: 'answer', request: 'highest unit price ordered per segment',
    plan: { ...OC, select: [v(C, 'segment'), agg('max', colE(O, 'unit_price'), 'max_price')], group_by: [ref(C, 'segment')], order_by: [asc(0)] },
    gold: `SELECT c.segment, max(o.unit_price) ${OCsql} GROUP BY 1 ORDER BY 1` },
  { id: 'x12', expect: 'answer', request: 'orders per customer in Spain',
    plan: { ...OC, select: [v(C, 'name'), agg('count', null, 'orders')], where: eq(C, 'country', 'Spain'), group_by: [ref(C, 'name')], order_by: [asc(0)] },
    gold: `SELECT c.name, count(*) ${OCsql} WHERE c.country = 'Spain' GROUP BY 1 ORDER BY 1` },
  { id: 'x13', expect: 'answer', request: 'average temperature per site',
    plan: { ...RD, select: [v(D, 'site'), agg('avg', colE(R, 'temperature'), 'avg_temp')], group_by: [ref(D, 'site')], order_by: [asc(0)] },
    gold: `SELECT d.site, avg(r.temperature) ${RDsql} GROUP BY 1 ORDER BY 1` },
  { id: 'x14', expect: 'answer', request: 'highest temperature per device model',
    plan: { ...RD, select: [v(D, 'model'), agg('max', colE(R, 'temperature'), 'max_temp')], group_by: [ref(D, 'model')], order_by: [asc(0)] },
    gold: `SELECT d.model, max(r.temperature) ${RDsql} GROUP BY 1 ORDER BY 1` },
  { id: 'x15', expect: 'answer', request: 'readings with humidity above 60 per site',
    plan: { ...RD, select: [v(D, 'site'), agg('count', null, 'readings')], where: num(R, 'humidity', '>', 60), group_by: [ref(D, 'site')], order_by: [asc(0)] },
    gold: `SELECT d.site, count(*) ${RDsql} WHERE r.humidity > 60 GROUP BY 1 ORDER BY 1` },
  { id: 'x16', expect: 'answer', request: 'lowest battery level per site',
    plan: { ...RD, select: [v(D, 'site'), agg('min', colE(R, 'battery'), 'min_battery')], group_by: [ref(D, 'site')], order_by: [asc(0)] },
    gold: `SELECT d.site, min(r.battery) ${RDsql} GROUP BY 1 ORDER BY 1` },
  { id: 'x17', expect: 'answer', request: 'average humidity per model at berlin-lab',
    plan: { ...RD, select: [v(D, 'model'), agg('avg', colE(R, 'humidity'), 'avg_humidity')], where: eq(D, 'site', 'berlin-lab'), group_by: [ref(D, 'model')], order_by: [asc(0)] },
    gold: `SELECT d.model, avg(r.humidity) ${RDsql} WHERE d.site = 'berlin-lab' GROUP BY 1 ORDER BY 1` },
  { id: 'x18', expect: 'answer', request: 'how many readings above 35 degrees per site',
    plan: { ...RD, select: [v(D, 'site'), agg('count', null, 'hot')], where: num(R, 'temperature', '>', 35), group_by: [ref(D, 'site')], order_by: [asc(0)] },
    gold: `SELECT d.site, count(*) ${RDsql} WHERE r.temperature > 35 GROUP BY 1 ORDER BY 1` },
  { id: 'x19', expect: 'answer', request: 'daily average temperature at munich-plant',
    plan: { ...RD, select: [{ kind: 'bucket', alias: 'day' }, agg('avg', colE(R, 'temperature'), 'avg_temp')], where: eq(D, 'site', 'munich-plant'), time_bucket: { column: ref(R, 'ts'), unit: 'day' }, order_by: [asc(0)] },
    gold: `SELECT date_trunc('day', r.ts) AS day, avg(r.temperature) ${RDsql} WHERE d.site = 'munich-plant' GROUP BY 1 ORDER BY 1` },
  { id: 'x20', expect: 'answer', request: 'orders of at least 4 items from Dutch customers, with the customer',
    plan: { ...OC, select: [v(O, 'order_id'), v(C, 'name'), v(O, 'quantity')], where: and(num(O, 'quantity', '>=', 4), eq(C, 'country', 'Netherlands')), order_by: [asc(0)] },
    gold: `SELECT o.order_id, c.name, o.quantity ${OCsql} WHERE o.quantity >= 4 AND c.country = 'Netherlands' ORDER BY 1` },
  { id: 'x21', expect: 'answer', request: 'how many orders were returned or came from Italy',
    plan: { ...OC, select: [agg('count', null, 'orders')], where: { kind: 'or', conditions: [eq(O, 'status', 'returned'), eq(C, 'country', 'Italy')] } },
    gold: `SELECT count(*) ${OCsql} WHERE o.status = 'returned' OR c.country = 'Italy'` },
  { id: 'x22', expect: 'answer', request: 'top 3 categories by revenue among small businesses',
    plan: { ...OC, select: [v(O, 'category'), agg('sum', revenue, 'revenue')], where: eq(C, 'segment', 'small_business'), group_by: [ref(O, 'category')], order_by: [desc(1), asc(0)], limit: 3 },
    gold: `SELECT o.category, sum(o.quantity * o.unit_price) ${OCsql} WHERE c.segment = 'small_business' GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 3` },
  { id: 'x23', expect: 'answer', request: 'how many different customers bought books, per country',
    plan: { ...OC, select: [v(C, 'country'), agg('count', colE(O, 'customer_id'), 'customers', true)], where: eq(O, 'category', 'books'), group_by: [ref(C, 'country')], order_by: [asc(0)] },
    gold: `SELECT c.country, count(DISTINCT o.customer_id) ${OCsql} WHERE o.category = 'books' GROUP BY 1 ORDER BY 1` },
  { id: 'x24', expect: 'answer', request: 'average battery per site at munich-plant and hamburg-port',
    plan: { ...RD, select: [v(D, 'site'), agg('avg', colE(R, 'battery'), 'avg_battery')], where: { kind: 'in', column: ref(D, 'site'), values: [{ kind: 'string', value: 'munich-plant' }, { kind: 'string', value: 'hamburg-port' }] }, group_by: [ref(D, 'site')], order_by: [asc(0)] },
    gold: `SELECT d.site, avg(r.battery) ${RDsql} WHERE d.site IN ('munich-plant', 'hamburg-port') GROUP BY 1 ORDER BY 1` },
  { id: 'x25', expect: 'answer', request: 'latest order time per country',
    plan: { ...OC, select: [v(C, 'country'), agg('max', colE(O, 'ordered_at'), 'latest')], group_by: [ref(C, 'country')], order_by: [asc(0)] },
    gold: `SELECT c.country, max(o.ordered_at) ${OCsql} GROUP BY 1 ORDER BY 1` },
  { id: 'x26', expect: 'answer', variant: 'messy', request: 'total order value per country', note: 'customer ids kept as padded text in the crm',
    plan: { ...OC, select: [v(C, 'country'), agg('sum', revenue, 'revenue')], group_by: [ref(C, 'country')], order_by: [asc(0)] },
    gold: `SELECT c.country, sum(o.quantity * o.unit_price) ${OCsql} GROUP BY 1 ORDER BY 1` },
  { id: 'x27', expect: 'answer', variant: 'messy', request: 'average temperature per site', note: 'device ids upper-cased with a trailing space in the crm',
    plan: { ...RD, select: [v(D, 'site'), agg('avg', colE(R, 'temperature'), 'avg_temp')], group_by: [ref(D, 'site')], order_by: [asc(0)] },
    gold: `SELECT d.site, avg(r.temperature) ${RDsql} GROUP BY 1 ORDER BY 1` },
  // Filters on both sides that leave few or no pairs: the keys are fine, the answer is small.
  { id: 'x28', expect: 'answer', request: 'how many returned orders came from customers in Italy',
    plan: { ...OC, select: [agg('count', null, 'orders')], where: and(eq(O, 'status', 'returned'), eq(C, 'country', 'Italy')) },
    gold: `SELECT count(*) ${OCsql} WHERE o.status = 'returned' AND c.country = 'Italy'` },
  { id: 'x29', expect: 'answer', request: 'how many returned orders came from customers in Germany',
    plan: { ...OC, select: [agg('count', null, 'orders')], where: and(eq(O, 'status', 'returned'), eq(C, 'country', 'Germany')) },
    gold: `SELECT count(*) ${OCsql} WHERE o.status = 'returned' AND c.country = 'Germany'` },
  { id: 'c01', expect: 'clarify', asks: 'join keys', variant: 'bad', request: 'order value per country', note: 'the crm customer ids are C-prefixed: no rule reconciles them',
    plan: { ...OC, select: [v(C, 'country'), agg('sum', revenue, 'revenue')], group_by: [ref(C, 'country')] } },
  { id: 'c02', expect: 'clarify', asks: 'row|limit', rowLimit: 200, request: 'average temperature per site', note: 'the readings part is far over a 200-row limit',
    plan: { ...RD, select: [v(D, 'site'), agg('avg', colE(R, 'temperature'), 'avg_temp')], group_by: [ref(D, 'site')] } },
  { id: 'c03', expect: 'clarify', asks: 'exists in 2 sources', variant: 'ambiguous', request: 'how many customers are there', note: 'two sources hold customers',
    plan: { source: 'customers', select: [agg('count', null, 'customers')] } },
  { id: 'c04', expect: 'clarify', asks: 'exists in 2 sources', variant: 'ambiguous', request: 'orders per country', note: 'orders and customers each in two sources',
    plan: { source: 'orders', joins: [{ table: 'customers', on: [{ left: ref('orders', 'customer_id'), right: ref('customers', 'customer_id') }] }], select: [v('customers', 'country'), agg('count', null, 'orders')], group_by: [ref('customers', 'country')] } },
  // Only in the request-reading run: no plan a model would give, the reading itself must ask.
  { id: 'c05', expect: 'clarify', asks: 'exists in 2 sources', variant: 'ambiguous', request: 'total order value per customer segment', note: 'orders and customers each in two sources' },
  { id: 'c06', expect: 'clarify', asks: "'age'", request: 'average customer age per country', note: 'no source has an age' },
  { id: 'c07', expect: 'clarify', asks: 'device|site|orders and devices', request: 'how many orders per device site', note: 'no key links orders to devices' },
]; // prettier-ignore
