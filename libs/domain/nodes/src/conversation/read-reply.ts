import { describeMeaning, type Asked, type Resolution, type WordMeaning } from '@nl2p/envelope';
import { linkRequest, type ArithmeticNode, type LinkSchema, type Links, type TermLink } from '@nl2p/linking';
import type { CompareOp, ValueExpr } from '@nl2p/query-plan';
import { pickedMeaning } from './choice';
import { choiceIndex, isCancel, splitDefinition, stripLeadIn } from './reply-phrases';

/** What a reply to a clarification says, read against what was asked. */
export type ReplyReading =
  /** The word asked about (or the word the person defined) means this. */
  | { kind: 'resolved'; resolution: Resolution }
  /** The person said the request again, whole: it replaces the one asked about. */
  | { kind: 'restated'; request: string }
  /** An answer to a model's own question: the model sees it with its question. */
  | { kind: 'answer'; question: string; answer: string }
  | { kind: 'cancel' }
  /** Nothing in the reply could be read as an answer: `why` says what was expected. */
  | { kind: 'unreadable'; why: string };

/** What the reply is read with: the data's names, and the tables the request was about (preferred). */
export interface ReplyContext {
  schema: LinkSchema;
  tables: readonly string[];
  /**
   * The reply read as a request of its own: `query` when it has a query's shape (a grouping, a
   * time bucket, a condition beside an aggregate), `plan` when it makes some other plan, else null.
   */
  shapeOf: (text: string) => 'query' | 'plan' | null;
}

/**
 * Reads `text` as the answer to `asked`: cancel; a definition (`revenue is quantity times unit
 * price`); a choice's number or text; a threshold; a name of the data (column, table or value,
 * tolerant of case and plural as the linker is); an expression; or the request said again.
 */
export function readReply(asked: Asked, text: string, ctx: ReplyContext): ReplyReading {
  if (isCancel(text)) return { kind: 'cancel' };
  if (asked.kind === 'open') {
    return ctx.shapeOf(text)
      ? { kind: 'restated', request: text }
      : { kind: 'answer', question: asked.question, answer: text };
  }
  if (asked.kind === 'measure') {
    const named = meaningOf(stripLeadIn(text), ctx, []);
    if (named.ok && named.meaning.kind === 'table') return { kind: 'restated', request: text };
    return ctx.shapeOf(text) || named.ok
      ? { kind: 'restated', request: text }
      : { kind: 'unreadable', why: `I could not find '${text}' in the data` };
  }

  const definition = splitDefinition(text);
  if (definition) {
    const meant = meaningOf(definition.body, ctx, 'candidates' in asked ? asked.candidates : []);
    if (!meant.ok) return { kind: 'unreadable', why: meant.why };
    return { kind: 'resolved', resolution: { word: definition.word, means: meant.meaning, from: 'definition' } };
  }
  if (asked.kind === 'threshold') return readThreshold(asked, text);

  // A pick for a value found in several columns is that column's value (see pickedMeaning).
  const means = (m: WordMeaning) =>
    asked.kind === 'choice' ? pickedMeaning(asked.word, m, asked.candidates, ctx.schema) : m;
  const choice = choiceIndex(text, asked.candidates.length);
  if (choice !== null) {
    const picked = asked.candidates[choice];
    if (picked) return { kind: 'resolved', resolution: { word: asked.word, means: means(picked), from: 'reply' } };
  }
  if (ctx.shapeOf(text) === 'query') return { kind: 'restated', request: text };
  const meant = meaningOf(stripLeadIn(text), ctx, asked.candidates);
  if (!meant.ok) return { kind: 'unreadable', why: meant.why };
  return { kind: 'resolved', resolution: { word: asked.word, means: means(meant.meaning), from: 'reply' } };
}

const ABOVE = /\b(above|over|more than|greater than|higher than|exceeds?|at least|>=?)\s*$/i;
const BELOW = /\b(below|under|less than|lower than|at most|<=?)\s*$/i;

/** `30`, `above 30 degrees`, `at least 4`: the comparison a gradable word stands for. */
function readThreshold(asked: Extract<Asked, { kind: 'threshold' }>, text: string): ReplyReading {
  const m = /(-?\d+(?:\.\d+)?)/.exec(text);
  if (!m) {
    return { kind: 'unreadable', why: `I need a number for '${asked.word}' (e.g. "above 30")` };
  }
  const before = text.slice(0, m.index);
  const inclusive = /\b(at least|at most|>=|<=)\s*$/i.test(before);
  const gradable = asked.word.toLowerCase().split(/\s+/).at(-1) ?? '';
  const low = BELOW.test(before) || (!ABOVE.test(before) && LOW_WORDS.has(gradable));
  const op: CompareOp = low ? (inclusive ? '<=' : '<') : inclusive ? '>=' : '>';
  const means: WordMeaning = {
    kind: 'condition',
    table: asked.table,
    column: asked.column,
    op,
    value: Number(m[1]),
  };
  return { kind: 'resolved', resolution: { word: asked.word, means, from: 'reply' } };
}

/** Gradable words whose threshold is an upper bound when the reply gives only a number. */
const LOW_WORDS = new Set(['low', 'cold', 'cool', 'small', 'cheap', 'slow', 'short', 'light', 'few', 'little']);

type Meant = { ok: true; meaning: WordMeaning } | { ok: false; why: string };

/**
 * What a phrase names in the data: an expression over one table's columns (`quantity times unit
 * price`), else its best name — a candidate the question offered, then the request's tables first.
 */
export function meaningOf(phrase: string, ctx: ReplyContext, offered: readonly WordMeaning[]): Meant {
  const links = linkRequest(phrase, ctx.schema);
  const arithmetic = links.arithmetic[0];
  if (arithmetic) {
    const expr = exprOf(arithmetic.expr, links, ctx.tables);
    if (!expr) return { ok: false, why: `the columns of '${phrase}' are not in one table` };
    return { ok: true, meaning: { kind: 'expr', table: expr.table, expr: expr.expr } };
  }
  const terms = links.terms;
  if (!terms.length) return { ok: false, why: `I could not find '${phrase}' in the data` };
  // The longest phrase naming something is the answer (`unit price`, not `price`).
  const term = [...terms].sort((a, b) => b.end - b.start - (a.end - a.start))[0];
  if (!term) return { ok: false, why: `I could not find '${phrase}' in the data` };
  const options = meaningsOf(term);
  const fromOffer = options.find((o) => offered.some((c) => describeMeaning(c) === describeMeaning(o.meaning)));
  if (fromOffer) return { ok: true, meaning: fromOffer.meaning };
  const top = options[0];
  if (!top) return { ok: false, why: `I could not find '${phrase}' in the data` };
  const best = options.filter((o) => top.score - o.score < 0.05);
  const preferred = best.filter((o) => ctx.tables.includes(o.meaning.table));
  const chosen = preferred.length === 1 ? preferred : best;
  if (chosen.length > 1) {
    return {
      ok: false,
      why: `'${phrase}' could be ${chosen.map((o) => describeMeaning(o.meaning)).join(' or ')}`,
    };
  }
  return { ok: true, meaning: (chosen[0] ?? top).meaning };
}

/** Every reading of one term as a meaning, best first; a value beats a column it belongs to. */
function meaningsOf(t: TermLink): { meaning: WordMeaning; score: number }[] {
  const out: { meaning: WordMeaning; score: number }[] = [
    ...t.values.map((v) => ({
      meaning: { kind: 'value' as const, table: v.table, column: v.column, value: v.value },
      score: v.score + 0.001,
    })),
    ...t.columns
      .filter((c) => !c.path?.length && c.match !== 'concept' && c.match !== 'generic')
      .map((c) => ({ meaning: { kind: 'column' as const, table: c.table, column: c.column }, score: c.score })),
    ...t.tables.map((x) => ({ meaning: { kind: 'table' as const, table: x.table }, score: x.score })),
  ];
  return out.sort((a, b) => b.score - a.score);
}

/** The linker's arithmetic as a plan expression over one table's columns (the request's first). */
function exprOf(
  node: ArithmeticNode,
  links: Links,
  preferred: readonly string[],
): { table: string; expr: ValueExpr } | null {
  const termIds: number[] = [];
  const collect = (n: ArithmeticNode) => {
    if ('term' in n.left) termIds.push(n.left.term);
    if ('node' in n.left) collect(n.left.node);
    if ('term' in n.right) termIds.push(n.right.term);
  };
  collect(node);
  const terms = termIds.map((id) => links.terms.find((t) => t.id === id));
  const tables = [...new Set(terms.flatMap((t) => t?.columns.map((c) => c.table) ?? []))];
  const table = [...preferred, ...tables].find((tb) => terms.every((t) => t?.columns.some((c) => c.table === tb)));
  if (!table) return null;
  const column = (id: number): ValueExpr => {
    const c = links.terms.find((t) => t.id === id)?.columns.find((x) => x.table === table);
    return { kind: 'column', ref: { column: c?.column ?? '' } };
  };
  const operand = (o: ArithmeticNode['left']): ValueExpr =>
    'term' in o ? column(o.term) : 'number' in o ? { kind: 'number', value: o.number } : build(o.node);
  const build = (n: ArithmeticNode): ValueExpr => ({
    kind: 'arith',
    op: n.op,
    left: operand(n.left),
    right: operand(n.right),
  });
  return { table, expr: build(node) };
}
