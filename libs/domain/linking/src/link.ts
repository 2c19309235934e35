import type { AggregateFn } from '@nl2p/query-plan';
import {
  ANSWER_CUES,
  CONCEPTS,
  CUE_WORDS,
  FILLER_WORDS,
  fillerReason,
  FUNCTION_WORDS,
  ORDER_CUES,
  PREPOSITION_CUES,
  REQUEST_VERBS,
  TIME_UNIT_CUES,
} from './lexicon';
import { conceptColumns, findTerms, wordScore } from './match';
import { findComparisons } from './numbers';
import { findDirection, findLimits, superlativeAt, SUPERLATIVES } from './order';
import { buildIndex, type SchemaIndex } from './schema-index';
import { numberOf, singular, tokenize, type Token } from './text';
import { findTimeGroups, findTimeRanges } from './time';
import type {
  AggregateLink,
  ArithmeticLink,
  ArithmeticNode,
  ComparisonLink,
  GroupLink,
  LinkSchema,
  Links,
  OrderLink,
  Span,
  TermLink,
} from './types';

const range = (a: number, b: number) => Array.from({ length: Math.max(0, b - a) }, (_, k) => a + k);

/** Single-word aggregate cues. Superlatives (`highest`) are aggregates or orderings: see order.ts. */
const AGGREGATE_WORDS: Record<string, AggregateFn> = {
  average: 'avg',
  averages: 'avg',
  avg: 'avg',
  mean: 'avg',
  sum: 'sum',
  total: 'sum',
  totals: 'sum',
  count: 'count',
  maximum: 'max',
  max: 'max',
  peak: 'max',
  minimum: 'min',
  min: 'min',
};
const DISTINCT_WORDS = new Set(['distinct', 'different', 'unique']);
const NEGATIONS = new Set(['not', 'never', 'neither', 'nor', 'except', 'excluding', 'exclude', 'without', 'no']);
const OPERATORS: Record<string, ArithmeticNode['op']> = {
  times: '*',
  '*': '*',
  '×': '*',
  x: '*',
  multiplied: '*',
  plus: '+',
  '+': '+',
  minus: '-',
  divided: '/',
};
const PROJECTION_VERBS = new Set([
  'forward',
  'emit',
  'show',
  'list',
  'give',
  'return',
  'display',
  'select',
  'get',
  'find',
  'print',
  'provide',
  'tell',
  'output',
  'include',
  'fetch',
]);
const SCOPE_CLOSERS = new Set([
  'where',
  'whose',
  'that',
  'which',
  'who',
  'if',
  'when',
  'only',
  'but',
  'whereas',
  'while',
  'having',
  'from',
  'for',
  'in',
  'on',
  'during',
  'since',
  'between',
  'per',
  'by',
  'over',
]);
const SORT_VERBS = new Set(['sorted', 'sort', 'ranked', 'rank', 'order', 'ordered', 'arranged']);

export interface LinkOptions {
  /** What "last 7 days" is relative to; default the current time. */
  now?: Date;
}

/** What every word or phrase of the request maps to in the schema: see {@link Links}. */
export function linkRequest(text: string, schema: LinkSchema, options: LinkOptions = {}): Links {
  return linkWithIndex(text, buildIndex(schema), options);
}

export function linkWithIndex(text: string, index: SchemaIndex, options: LinkOptions = {}): Links {
  const tokens = tokenize(text);
  const now = options.now ?? new Date();
  const taken = new Set<number>();
  const take = (idx: Iterable<number>) => {
    for (const k of idx) taken.add(k);
  };
  const slice = (s: number, e: number) => text.slice(tokens[s]?.start ?? 0, tokens[e - 1]?.end ?? 0);
  const norm = (k: number) => tokens[k]?.norm ?? '';

  // 1. Time grouping, dates and limits own their numbers before anything reads them as values.
  // Windows go first: "a sliding window of the last 30 seconds" is not a date range.
  const timeGroups = findTimeGroups(tokens, index.streaming, text).map((f) => {
    take(f.tokens);
    return f.link;
  });
  const timeRanges = findTimeRanges(tokens, text, now, taken).map((f) => {
    take(f.tokens);
    return f.link;
  });
  const limits = findLimits(tokens, taken);
  for (const l of limits) take(range(l.start, l.end));
  const direction = findDirection(tokens);
  if (direction) take(range(direction.start, direction.end));

  // 2. Comparisons: the cue, the number and its unit (a column between cue and number stays free).
  const found = findComparisons(tokens, taken);
  for (const c of found) {
    take(range(c.cueStart, c.cueEnd));
    take(range(c.numberAt, c.numberEnd));
    if (c.postfixAt !== null) take(range(c.postfixAt, c.end));
  }

  // 3. Aggregate and superlative cues, unless the words name a column outright (`total_amount`).
  const cueAt = new Map<number, { fn: AggregateFn | null; superlative: boolean; end: number }>();
  for (let i = 0; i < tokens.length; i++) {
    if (taken.has(i)) continue;
    const w = norm(i);
    if (w === 'how' && (norm(i + 1) === 'many' || norm(i + 1) === 'much')) {
      cueAt.set(i, { fn: norm(i + 1) === 'many' ? 'count' : null, superlative: false, end: i + 2 });
      i++;
      continue;
    }
    if (w === 'number' && norm(i + 1) === 'of') {
      cueAt.set(i, { fn: 'count', superlative: false, end: i + 2 });
      i++;
      continue;
    }
    const sup = superlativeAt(tokens, i);
    if (sup) {
      cueAt.set(i, { fn: sup.fn, superlative: true, end: sup.end });
      i = sup.end - 1;
      continue;
    }
    const fn = AGGREGATE_WORDS[w];
    if (fn && !namesColumn(tokens, i, index)) {
      // "in total" after a count is only emphasis; kept as a weak sum cue the proposer may drop.
      cueAt.set(i, { fn, superlative: false, end: i + 1 });
    }
  }
  // Operators between two operands (`quantity times unit price`) are not the word `times`.
  for (let i = 1; i < tokens.length - 1; i++) {
    const prev = tokens[i - 1];
    if (
      OPERATORS[norm(i)] &&
      prev &&
      prev.kind !== 'punct' &&
      !FUNCTION_WORDS.has(prev.norm) &&
      tokens[i + 1]?.kind !== 'punct'
    ) {
      cueAt.delete(i);
      taken.add(i);
      if (norm(i + 1) === 'by') taken.add(i + 1);
    }
  }
  const cueTokens = new Set<number>();
  for (const [i, c] of cueAt) for (const k of range(i, c.end)) cueTokens.add(k);
  // Distinct markers.
  let distinct = false;
  const distinctAt = new Set<number>();
  for (let i = 0; i < tokens.length; i++) {
    if (DISTINCT_WORDS.has(norm(i))) distinctAt.add(i);
    if (norm(i) === 'once' && tokens.slice(Math.max(0, i - 4), i).some((t) => t.norm === 'each')) distinct = true;
    if (norm(i) === 'duplicates' || norm(i) === 'duplicate') distinct = true;
  }

  // 4. Terms: tables, columns, values.
  const blocked = new Set([...taken, ...cueTokens, ...distinctAt]);
  const terms = findTerms(tokens, index, blocked).map((t) => ({ ...t, text: slice(t.start, t.end) }));
  const termAt = new Map<number, TermLink>();
  for (const t of terms) for (const k of range(t.start, t.end)) termAt.set(k, t);

  // 5. Negation: `not cancelled`, `neither cancelled nor returned`, `except books`.
  const negationAt: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const w = norm(i);
    const negation =
      NEGATIONS.has(w) || /n['’]t$/.test(tokens[i]?.text ?? '') || (w === 'other' && norm(i + 1) === 'than');
    if (!negation || taken.has(i)) continue;
    negationAt.push(i);
    let k = i + 1;
    let hit = false;
    while (k < tokens.length && k <= i + 6) {
      const t = termAt.get(k);
      if (t && t.values.length) {
        t.negated = true;
        hit = true;
        k = t.end;
        continue;
      }
      const nw = norm(k);
      // The column named before its value (`except device dev-01`) is part of the negated phrase.
      const valueNext = t && !t.values.length ? termAt.get(t.end) : undefined;
      if (
        t &&
        valueNext &&
        valueNext.start === t.end &&
        valueNext.values.some((v) => t.columns.some((c) => c.table === v.table && c.column === v.column))
      ) {
        k = t.end;
        continue;
      }
      // A yes/no column said as a condition (`not ok`, `vehicles that are not ok`).
      if (t && !t.values.length && t.start === k && booleanColumn(t, index)) {
        t.negated = true;
        hit = true;
        k = t.end;
        continue;
      }
      if (t && !t.values.length) {
        // `trips without tips`: a measure said absent; what "absent" means (0, NULL) is not said.
        if (!hit && t.start === k && (w === 'without' || w === 'no')) t.negated = true;
        break;
      }
      if (hit && !['or', 'nor', 'and', ',', 'the', 'a', 'any'].includes(nw)) break;
      if (!hit && !FUNCTION_WORDS.has(nw) && !REQUEST_VERBS.has(nw) && nw !== 'than' && tokens[k]?.kind !== 'punct')
        break;
      k++;
    }
  }

  // 6. Projection scope: what `show …`, `: …`, `with the …` list.
  const scope = projectionScope(tokens);
  for (const t of terms) t.projected = range(t.start, t.end).some((k) => scope[k]);

  // 7. Arithmetic between terms (`quantity times unit price`).
  const arithmetic: ArithmeticLink[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const op = OPERATORS[norm(i)];
    if (!op) continue;
    const opEnd = (norm(i) === 'multiplied' || norm(i) === 'divided') && norm(i + 1) === 'by' ? i + 2 : i + 1;
    const left = termAt.get(i - 1);
    const leftNumber = left ? null : numberOf(tokens[i - 1]);
    let r = opEnd;
    while (norm(r) === 'the' || norm(r) === 'its') r++;
    const right = termAt.get(r);
    const rightNumber = right ? null : numberOf(tokens[r]);
    if ((!left && leftNumber === null) || (!right && rightNumber === null)) continue;
    const rightOperand = right ? { term: right.id } : { number: rightNumber ?? 0 };
    const prev = arithmetic.at(-1);
    const chained = prev && left && prev.end === left.end;
    const leftOperand = chained ? { node: prev.expr } : left ? { term: left.id } : { number: leftNumber ?? 0 };
    const expr: ArithmeticNode = { op, left: leftOperand, right: rightOperand };
    const start = chained ? prev.start : left ? left.start : i - 1;
    const end = right ? right.end : r + 1;
    if (chained) arithmetic.pop();
    arithmetic.push({ id: arithmetic.length, start, end, text: slice(start, end), expr, defines: [] });
    take(range(i, opEnd));
  }
  const arithAt = new Map<number, ArithmeticLink>();
  for (const a of arithmetic) {
    for (const k of range(a.start, a.end)) arithAt.set(k, a);
    a.defines = definedWords(tokens, a, termAt);
  }
  const defined = new Set(arithmetic.flatMap((a) => a.defines));

  // 8. Aggregates and their targets.
  const aggregates: AggregateLink[] = [];
  const aggAt = new Map<number, number>();
  for (const [i, c] of [...cueAt].sort((a, b) => a[0] - b[0])) {
    if (!c.fn) continue;
    let k = c.end;
    let isDistinct = false;
    let target: AggregateLink['target'] = null;
    let countsRows = false;
    while (k < tokens.length) {
      const t = termAt.get(k);
      const a = arithAt.get(k);
      if (a) {
        target = { arithmetic: a.id };
        break;
      }
      if (t) {
        // `average order quantity`: a table named before one of its columns qualifies it; the
        // column is what is averaged.
        const next = termAt.get(t.end);
        const namesTable = namesTableFirst(t);
        const qualified =
          c.fn !== 'count' &&
          namesTable &&
          next &&
          next.start === t.end &&
          !next.values.length &&
          next.columns.some((col) => t.tables.some((tb) => tb.table === col.table)) &&
          measureLike(next, index);
        target = { term: qualified ? next.id : t.id };
        countsRows = c.fn === 'count' && namesTable;
        break;
      }
      const w = norm(k);
      if (distinctAt.has(k)) {
        isDistinct = true;
        k++;
        continue;
      }
      // A defined word (`revenue`) stands for its arithmetic, wherever it is said.
      if (defined.has(w)) {
        const def = arithmetic.find((x) => x.defines.includes(w));
        if (def) target = { arithmetic: def.id };
        break;
      }
      const other = cueAt.get(k);
      if (other) {
        k = other.end;
        continue;
      }
      if (w === '(' && arithAt.get(k + 1)) {
        k++;
        continue;
      }
      if (FUNCTION_WORDS.has(w) && !['per', 'by', 'for', 'in', 'over', 'across', 'than', 'each', 'every'].includes(w)) {
        k++;
        continue;
      }
      // `total revenue (…)`: an undefined noun right before the bracketed arithmetic.
      if (tokens[k]?.kind === 'word' && norm(k + 1) === '(' && arithAt.get(k + 2)) {
        k += 2;
        continue;
      }
      if ((FILLER_WORDS.has(w) || CUE_WORDS.has(w)) && tokens[k]?.kind === 'word' && !taken.has(k)) {
        k++;
        continue;
      }
      break;
    }
    if (c.fn === 'count' && !target) countsRows = true;
    aggAt.set(i, aggregates.length);
    aggregates.push({
      start: i,
      end: c.end,
      text: slice(i, c.end),
      fn: c.fn,
      distinct: isDistinct,
      target,
      countsRows,
      superlative: c.superlative,
    });
  }
  if (
    !aggregates.some((a) => a.fn === 'count' && a.distinct) &&
    distinctAt.size &&
    !aggregates.some((a) => a.distinct)
  ) {
    distinct = true;
  }

  // 9. Comparisons: what each is about.
  const comparisons: ComparisonLink[] = found.map((c) => {
    let subject: number | null = null;
    // Between cue and number (`north of latitude 50`).
    for (let k = c.cueEnd; k < c.numberAt; k++) {
      const t = termAt.get(k);
      if (t && (t.columns.length || t.tables.length)) subject = t.id;
    }
    let aggregate: AggregateFn | null = null;
    // The noun counted by the number (`more than 3 passengers` → passenger_cnt).
    const counted = termAt.get(c.numberEnd);
    if (
      subject === null &&
      counted &&
      counted.start === c.numberEnd &&
      !counted.values.length &&
      measureLike(counted, index)
    )
      subject = counted.id;
    // Before the cue, over verbs and function words (`humidity was below`, `a quantity of at least`).
    if (subject === null) {
      for (let k = c.cueStart - 1; k >= Math.max(0, c.cueStart - 5); k--) {
        const t = termAt.get(k);
        if (t) {
          if (t.columns.length && !t.values.length && measureLike(t, index)) subject = t.id;
          break;
        }
        const ai = aggAt.get(k);
        if (ai !== undefined) {
          aggregate = aggregates[ai]?.fn ?? null;
          break;
        }
        const w = norm(k);
        if (tokens[k]?.kind === 'punct') break;
        if (!FUNCTION_WORDS.has(w) && !REQUEST_VERBS.has(w) && !FILLER_WORDS.has(w) && !/(ed|ing)$/.test(w)) break;
      }
    }
    // `devices whose average temperature exceeds 30`, `with an average humidity above 60`: the
    // measure is named with its aggregate in a clause about the grouped thing, so the comparison
    // is about the aggregate (a HAVING), not about each row.
    if (subject !== null && aggregate === null) {
      const named = aggregates.find(
        (a) => a.target && 'term' in a.target && a.target.term === subject && a.end <= c.cueStart,
      );
      const before = named ? named.start - (ARTICLES.has(norm(named.start - 1)) ? 2 : 1) : -1;
      if (named && !named.superlative && RELATIVE_MARKERS.has(norm(before))) aggregate = named.fn;
    }
    // `more than 5 orders`: a count of rows.
    const after = termAt.get(c.numberEnd);
    const countsRows =
      !!after && subject !== after.id && after.tables.length > 0 && !after.values.length && c.op !== 'between';
    const hinted = c.hintWords.flatMap((w) => conceptColumns(index, w));
    if (countsRows) aggregate = 'count';
    // The noun the comparison's clause is about (`products` in `only products with more than 10
    // units`, `readings` in `only readings with battery above 20`): whether it is the grouped thing
    // or the rows decides between HAVING and WHERE once the grouping is known.
    const subjectTerm = subject !== null ? terms[subject] : undefined;
    const clauseStart = subjectTerm && subjectTerm.start < c.cueStart ? subjectTerm.start : c.start;
    // What leads into the comparison's clause, past the rows' noun and little words:
    // `excluding readings below 0`, `except those with battery under 20` (the rows kept are the
    // others); `… or with a fare above 50` (either condition).
    let n = clauseStart - 1;
    while (n >= 0 && n >= clauseStart - 6) {
      const t = termAt.get(n);
      if (t && t.tables.length && !t.values.length) n = t.start - 1;
      else if (ARTICLES.has(norm(n)) || CLAUSE_FILLERS.has(norm(n))) n--;
      else break;
    }
    const excluded = EXCLUSIONS.has(norm(n));
    const orWithPrevious = norm(n) === 'or' || (norm(n) === 'either' && norm(n - 1) === 'or');
    let k = clauseStart - 1;
    while (k >= 0 && ARTICLES.has(norm(k))) k--;
    const ownerTerm = OWNER_MARKERS.has(norm(k)) ? termAt.get(k - 1) : undefined;
    const owner = ownerTerm && ownerTerm.end === k && !ownerTerm.values.length ? ownerTerm.id : null;
    return {
      start: c.start,
      end: countsRows && after ? after.end : c.end,
      text: slice(c.start, countsRows && after ? after.end : c.end),
      op: c.op,
      value: c.value,
      high: c.high,
      unit: c.unit,
      subject,
      hinted,
      aggregate,
      countsRows,
      owner,
      excluded,
      orWithPrevious,
    };
  });

  // 10. Grouping cues.
  /** An aggregate starts at `k` (`a total quantity …`), or a count of rows (`more than 3 orders`). */
  const aboutAggregate = (k: number): boolean => aggAt.has(k) || comparisons.some((c) => c.start === k && c.countsRows);
  const groups: GroupLink[] = [];
  const orderKeysByBy: OrderLink[] = [];
  const hasSuperlative = [...cueAt.values()].some((c) => c.superlative);
  for (let i = 0; i < tokens.length; i++) {
    if (taken.has(i)) continue;
    const w = norm(i);
    let cue: string | null = null;
    let from = i + 1;
    if (w === 'per' || w === 'each' || w === 'every') cue = w;
    else if ((w === 'for' || w === 'in') && (norm(i + 1) === 'each' || norm(i + 1) === 'every')) {
      cue = `${w} ${norm(i + 1)}`;
      from = i + 2;
      i++;
    } else if (w === 'by' && !['(', 'and'].includes(norm(i + 1))) cue = 'by';
    else if (w === 'grouped' || w === 'broken' || w === 'split') {
      if (norm(i + 1) === 'by' || (norm(i + 1) === 'down' && norm(i + 2) === 'by')) {
        cue = 'grouped by';
        from = norm(i + 1) === 'by' ? i + 2 : i + 3;
      }
    } else if ((w === 'which' || w === 'what') && !taken.has(i + 1)) cue = 'which';
    else if (
      (w === 'whose' || (w === 'with' && aboutAggregate(ARTICLES.has(norm(i + 1)) ? i + 2 : i + 1))) &&
      !taken.has(i - 1)
    ) {
      // `devices whose average temperature exceeds 30`, `products with a total quantity above 50`:
      // the rows are the devices (products), computed per device (grouped only when something is
      // computed, as with `which`).
      const t = termAt.get(i - 1);
      if (t && t.end === i && !t.values.length)
        groups.push({
          start: t.start,
          end: i + 1,
          text: slice(t.start, i + 1),
          cue: 'which',
          term: t.id,
          qualifiers: [],
        });
      continue;
    } else if (w === 'wise' && tokens[i]?.joined) {
      const t = termAt.get(i - 1);
      if (t)
        groups.push({
          start: t.start,
          end: i + 1,
          text: slice(t.start, i + 1),
          cue: 'wise',
          term: t.id,
          qualifiers: [],
        });
      continue;
    }
    if (!cue) continue;
    // "each name once" asks for distinct names; "where each device belongs to a site" explains.
    if (cue === 'each' && tokens.slice(i + 1, i + 5).some((t) => t.norm === 'once')) continue;
    if (cue === 'each' && inWhereClause(tokens, i)) continue;
    let k = from;
    while (
      k < tokens.length &&
      ['the', 'each', 'every', 'single', 'individual', 'a', 'an', 'their', 'its'].includes(norm(k))
    )
      k++;
    let head = termAt.get(k);
    if (!head || head.start !== k || head.values.length) continue;
    const qualifiers: number[] = [];
    // A compound noun names its last word: `customer country`, `device model`, `product category`.
    for (
      let next = termAt.get(head.end);
      next && !next.values.length && tokens[next.start]?.kind === 'word';
      next = termAt.get(next.end)
    ) {
      qualifiers.push(head.id);
      head = next;
    }
    const prevWord = norm(i - 1);
    if (cue === 'by') {
      if (
        SORT_VERBS.has(prevWord) &&
        !(prevWord === 'ordered' && head.tables.length && !head.columns.some((c) => c.match !== 'partial'))
      ) {
        orderKeysByBy.push({
          start: i - 1,
          end: head.end,
          text: slice(i - 1, head.end),
          direction: null,
          limit: null,
          key: { term: head.id },
          hinted: [],
        });
        continue;
      }
      // A passive agent (`ordered by customers`), not a grouping.
      if (/ed$/.test(prevWord) || REQUEST_VERBS.has(prevWord)) continue;
      // `the most expensive products by unit price`: what the ranking is by.
      const numericHead = head.columns.some(
        (c) => index.table(c.table)?.columns.find((x) => x.label === c.label)?.numeric,
      );
      const idLike = head.columns.some((c) => /(^|_)id$/i.test(c.column));
      if (hasSuperlative && numericHead && !idLike && !aggregates.some((a) => !a.superlative)) {
        orderKeysByBy.push({
          start: i,
          end: head.end,
          text: slice(i, head.end),
          direction: null,
          limit: null,
          key: { term: head.id },
          hinted: [],
        });
        continue;
      }
    }
    if (cue === 'which' && tokens[head.start]?.kind !== 'word') continue;
    groups.push({ start: i, end: head.end, text: slice(i, head.end), cue, term: head.id, qualifiers });
    // `per vendor and borough`: the cue carries over a list of keys (not over a measure:
    // `per device and the average temperature` lists what to compute).
    for (let last = head; norm(last.end) === 'and' || norm(last.end) === ',';) {
      const more = termAt.get(last.end + 1);
      if (!more || more.start !== last.end + 1 || more.values.length || measureLike(more, index)) break;
      if (aggregates.some((a) => a.target && 'term' in a.target && a.target.term === more.id)) break;
      groups.push({ start: more.start, end: more.end, text: more.text, cue, term: more.id, qualifiers: [] });
      last = more;
    }
  }

  // 11. Ordering: superlatives, limits, explicit direction, `which X … the most` (limit 1).
  const orders: OrderLink[] = [...orderKeysByBy];
  for (const [i, c] of [...cueAt].sort((a, b) => a[0] - b[0])) {
    if (!c.superlative) continue;
    if (direction && i >= direction.start && i < direction.end) continue;
    const sup = superlativeAt(tokens, i);
    if (!sup) continue;
    let key: OrderLink['key'] = sup.time ? { time: true } : null;
    const hinted = sup.concept ? conceptColumns(index, sup.concept) : [];
    for (let k = sup.end; !key && !hinted.length && k < Math.min(tokens.length, sup.end + 6); k++) {
      const ai = aggAt.get(k);
      if (ai !== undefined && k !== i && !aggregates[ai]?.superlative) {
        key = { aggregate: ai };
        break;
      }
      const a = arithAt.get(k);
      if (a) key = { arithmetic: a.id };
      const t = termAt.get(k);
      if (t && !t.values.length) key = { term: t.id };
      if (defined.has(norm(k))) {
        const def = arithmetic.find((x) => x.defines.includes(norm(k)));
        if (def) key = { arithmetic: def.id };
      }
      if (tokens[k]?.kind === 'punct' && norm(k) !== '(') break;
    }
    orders.push({
      start: i,
      end: sup.end,
      text: slice(i, sup.end),
      direction: sup.direction,
      limit: null,
      key,
      hinted,
    });
  }
  for (const l of limits) {
    orders.push({
      start: l.start,
      end: l.end,
      text: slice(l.start, l.end),
      direction: null,
      limit: l.limit,
      key: null,
      hinted: [],
    });
  }
  if (direction) {
    orders.push({
      start: direction.start,
      end: direction.end,
      text: slice(direction.start, direction.end),
      direction: direction.direction,
      limit: null,
      key: direction.time ? { time: true } : null,
      hinted: [],
    });
  }
  // "Which device has the lowest …", "On which day was … highest", "the driver with the best
  // rating": one answer.
  if (!limits.length && hasSuperlative) {
    for (let i = 0; i < tokens.length; i++) {
      const w = norm(i);
      const singularThe =
        w === 'the' &&
        ['with', 'that', 'who', 'whose', 'having'].includes(norm(termAt.get(i + 1)?.end ?? i + 2)) &&
        tokens.slice(i + 2, i + 9).some((t) => t.norm === 'the' && superlativeAt(tokens, t.i + 1) !== null);
      if (w !== 'which' && w !== 'what' && !singularThe) continue;
      const next = tokens[i + 1];
      if (!next || next.kind !== 'word' || numberOf(next) !== null) continue;
      const t = termAt.get(i + 1);
      const noun = t ? tokens[t.end - 1] : next;
      if (noun && singular(noun.norm) === noun.norm && !FUNCTION_WORDS.has(next.norm)) {
        // After `the`, the noun itself is what the one answer is (the rows a limit ranks).
        const end = singularThe ? i + 1 : i + 2;
        orders.push({ start: i, end, text: slice(i, end), direction: null, limit: 1, key: null, hinted: [] });
        break;
      }
    }
  }

  // 12. What is left: content words that name nothing.
  const covered = new Set<number>([...taken, ...cueTokens, ...distinctAt]);
  for (const t of terms) for (const k of range(t.start, t.end)) covered.add(k);
  for (const a of arithmetic) for (const k of range(a.start, a.end)) covered.add(k);
  for (const c of comparisons) for (const k of range(c.start, c.end)) covered.add(k);
  for (const g of groups) for (const k of range(g.start, g.end)) covered.add(k);
  for (const o of orders) for (const k of range(o.start, o.end)) covered.add(k);
  const unlinked: Span[] = [];
  let run: number[] = [];
  const flush = () => {
    if (run.length) {
      const s = run[0] ?? 0;
      const e = (run.at(-1) ?? 0) + 1;
      unlinked.push({ start: s, end: e, text: slice(s, e) });
    }
    run = [];
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (!t) continue;
    // An unknown word in front of a column noun changes what it means: "wind speed" is not "speed".
    const after = termAt.get(i);
    if (
      after &&
      after.start === i &&
      run.length &&
      (run.at(-1) ?? -2) === i - 1 &&
      after.columns.length &&
      !after.values.length &&
      !after.tables.length
    ) {
      for (let k = after.start; k < after.end; k++) run.push(k);
      i = after.end - 1;
      flush();
      continue;
    }
    const content = t.kind === 'word' && !covered.has(i) && isContentWord(t) && !defined.has(t.norm);
    if (content) {
      if (run.length && (run.at(-1) ?? -2) !== i - 1) flush();
      run.push(i);
    } else flush();
  }
  flush();

  // 13. Words that change the answer when said, that no link took: the plan would not be the request.
  const unread = unreadWords(tokens, covered, negationAt, { terms, comparisons, orders, timeGroups, timeRanges });

  return {
    text,
    tokens: tokens.map((t) => t.text),
    terms,
    numbers: found.map((c) => ({
      start: c.numberAt,
      end: c.end,
      text: slice(c.numberAt, c.end),
      value: c.value,
      unit: c.unit,
      unitColumns: c.unit ? conceptColumns(index, c.unit) : [],
    })),
    comparisons,
    aggregates,
    groups,
    timeRanges,
    timeGroups,
    orders,
    arithmetic,
    distinct,
    unlinked,
    unread,
  };
}

/**
 * The answer-changing words (lexicon ANSWER_CUES, and negations) that no link took. A word that
 * only says again what a link already holds is read: an order word beside an order (`sorted …
 * in descending order`), a time unit beside a time grouping or range (`per day, the day as a
 * date`), a negation before a negated term or an excluding comparison. A preposition that
 * compares only with a number (`over all readings`) is a preposition.
 */
function unreadWords(
  tokens: readonly Token[],
  covered: ReadonlySet<number>,
  negationAt: readonly number[],
  links: Pick<Links, 'terms' | 'comparisons' | 'orders' | 'timeGroups' | 'timeRanges'>,
): Span[] {
  const span = (i: number): Span => ({ start: i, end: i + 1, text: tokens[i]?.text ?? '' });
  const negatedAfter = (i: number) =>
    links.terms.some((t) => t.negated && t.start > i && t.start <= i + 8) ||
    links.comparisons.some((c) => (c.excluded || c.op === '!=') && c.end > i && c.start <= i + 8);
  const out: Span[] = negationAt.filter((i) => !covered.has(i) && !negatedAfter(i)).map(span);
  const timed = links.timeGroups.length > 0 || links.timeRanges.length > 0;
  tokens.forEach((t, i) => {
    if (covered.has(i) || !ANSWER_CUES.has(t.norm) || negationAt.includes(i)) return;
    if (ORDER_CUES.has(t.norm) && links.orders.length) return;
    if (TIME_UNIT_CUES.has(singular(t.norm)) && timed) return;
    if (PREPOSITION_CUES.has(t.norm) && tokens[i + 1]?.kind !== 'number') return;
    out.push(span(i));
  });
  return out.sort((a, b) => a.start - b.start);
}

/** Words that open a clause about the grouped thing: `whose …`, `with an …`, `where the …`, `having …`. */
const RELATIVE_MARKERS: ReadonlySet<string> = new Set(['whose', 'with', 'where', 'having', 'when', 'if']);
const ARTICLES: ReadonlySet<string> = new Set(['a', 'an', 'the', 'their', 'its']);
/** Little words between a clause's lead word and its condition. */
const CLAUSE_FILLERS: ReadonlySet<string> = new Set([
  'that',
  'which',
  'those',
  'ones',
  'are',
  'is',
  'were',
  'was',
  'with',
  'where',
  'whose',
]);
/** Words that keep the other rows: `excluding readings below 0`. (`not above` is the comparison's own.) */
const EXCLUSIONS: ReadonlySet<string> = new Set(['excluding', 'except', 'exclude', 'without']);
/** Words between a noun and a condition on it: `products with …`, `devices whose …`, `those having …`. */
const OWNER_MARKERS: ReadonlySet<string> = new Set(['with', 'whose', 'having']);

/** A term that can be compared with a number: a numeric (or temporal) column that is not an id. */
/** The term names a table at least as well as any column (`orders`, `vehicles`). */
function namesTableFirst(t: TermLink): boolean {
  return t.tables.length > 0 && (t.tables[0]?.score ?? 0) >= (t.columns[0]?.score ?? 0);
}

function measureLike(t: TermLink, index: SchemaIndex): boolean {
  if (namesTableFirst(t)) return false;
  return t.columns.some((c) => {
    const info = index.table(c.table)?.columns.find((x) => x.label === c.label);
    return !!info && (info.numeric || info.temporal) && !/(^|_)id$/i.test(info.column);
  });
}

/** A term naming a yes/no column (and no table): `ok`, `is_active`. */
function booleanColumn(t: TermLink, index: SchemaIndex): boolean {
  if (namesTableFirst(t)) return false;
  return t.columns.some((c) => !!index.table(c.table)?.columns.find((x) => x.label === c.label)?.boolean);
}

/** Inside a `where …` clause that defines rather than filters (no comparison or value follows). */
function inWhereClause(tokens: readonly Token[], i: number): boolean {
  for (let k = i - 1; k >= 0; k--) {
    const w = tokens[k]?.norm ?? '';
    if (w === '.' || w === '?' || w === ';' || w === '!') return false;
    if (w === 'where' || w === 'whereas' || w === 'assuming' || w === 'given')
      return tokens[k - 1]?.norm === ',' || k > 0;
  }
  return false;
}

/** Words that would make the person's request unclear when they name nothing. */
function isContentWord(t: Token): boolean {
  const w = t.norm;
  if (w.length < 2 && !/\d/.test(w)) return false;
  if (CONCEPTS.has(w) || SUPERLATIVES[w] || numberOf(t) !== null) return false;
  if (/n['’]t$/.test(t.text)) return false;
  return fillerReason(w) === null;
}

/** `Office Chair` in `Office Chair orders` is a value, `total amount` a column: not cues. */
function namesColumn(tokens: readonly Token[], i: number, index: SchemaIndex): boolean {
  const pairs = [
    [tokens[i]?.norm ?? '', tokens[i + 1]?.norm ?? ''],
    [tokens[i - 1]?.norm ?? '', tokens[i]?.norm ?? ''],
  ];
  return index.tables.some((t) =>
    t.columns.some((c) =>
      c.readings.some(
        (r) =>
          r.words.length === 2 &&
          pairs.some(
            ([a, b]) => wordScore(a ?? '', r.words[0] ?? '') >= 0.9 && wordScore(b ?? '', r.words[1] ?? '') >= 0.9,
          ),
      ),
    ),
  );
}

/**
 * Words an arithmetic defines: `revenue` in `total revenue (quantity times unit price)`, `where
 * revenue is quantity times unit price`, `revenue = …`.
 */
function definedWords(tokens: readonly Token[], a: ArithmeticLink, termAt: Map<number, TermLink>): string[] {
  const out: string[] = [];
  const s = a.start;
  const isFree = (k: number) =>
    tokens[k]?.kind === 'word' && !termAt.has(k) && !FUNCTION_WORDS.has(tokens[k]?.norm ?? '');
  if (tokens[s - 1]?.norm === '(' && isFree(s - 2)) out.push(tokens[s - 2]?.norm ?? '');
  const before = tokens[s - 1]?.norm ?? '';
  if ((before === 'is' || before === '=' || before === 'as' || before === 'means') && isFree(s - 2))
    out.push(tokens[s - 2]?.norm ?? '');
  if (before === 'as' && tokens[s - 2]?.norm === 'defined' && isFree(s - 4)) out.push(tokens[s - 4]?.norm ?? '');
  return out.filter(Boolean);
}

/**
 * Which tokens sit where the request lists what to show: after `show`/`list`/`give`/`return`,
 * after a colon, after `with the`, until a clause boundary. A request with none of these (`The
 * vin and the latitude of each vehicle`) lists throughout.
 */
function projectionScope(tokens: readonly Token[]): boolean[] {
  const scope = tokens.map(() => false);
  let open = false;
  let any = false;
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i]?.norm ?? '';
    const opener =
      PROJECTION_VERBS.has(w) ||
      w === ':' ||
      (w === 'with' && !['a', 'an', 'no', 'any', 'more', 'less', 'at'].includes(tokens[i + 1]?.norm ?? '')) ||
      ((w === 'what' || w === 'whats') && ['is', 'are', 'was', 'were'].includes(tokens[i + 1]?.norm ?? '')) ||
      (w === '(' && i > 0);
    if (opener) {
      open = true;
      any = true;
      continue;
    }
    if (
      w === '.' ||
      w === '?' ||
      w === '!' ||
      w === ';' ||
      w === ')' ||
      SCOPE_CLOSERS.has(w) ||
      (w === 'with' && !opener)
    )
      open = false;
    scope[i] = open;
  }
  if (any) return scope;
  // No listing verb: the request opens with what it wants ("The vin and the latitude of …").
  let open2 = true;
  return tokens.map((t) => {
    if (
      t.norm === '.' ||
      t.norm === '?' ||
      t.norm === ';' ||
      (SCOPE_CLOSERS.has(t.norm) && !['of', 'in', 'on', 'for', 'per', 'by'].includes(t.norm))
    )
      open2 = false;
    return open2;
  });
}
