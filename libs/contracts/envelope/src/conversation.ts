import { z } from 'zod';
import { ColumnRef, CompareOp, Condition, ValueExpr } from '@nl2p/query-plan';
import { conditionText } from './condition-text';

// What a question asked the person, and what their reply resolved. A reply is read against the
// question it answers and resolves that slot of the reading; it is never joined to the request's
// text (the linker would read the product's question and the old word again).

/** What a word of the person's turned out to mean in the data. */
export const WordMeaning = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('column'), table: z.string(), column: z.string() }),
  z.object({ kind: z.literal('table'), table: z.string() }),
  z.object({ kind: z.literal('value'), table: z.string(), column: z.string(), value: z.string() }),
  /** A per-row value computed from one table's columns (`revenue` = quantity × unit_price). */
  z.object({ kind: z.literal('expr'), table: z.string(), expr: ValueExpr }),
  /**
   * A row condition over one table's columns (`hot` = temperature > 30, `active` = status !=
   * 'closed', `EU` = country in ('FR', 'DE')), as the plan writes it in `where`. The first form,
   * one column compared with a number (`column`, `op`, `value`), is still read (entries and
   * sessions kept before `where` existed, a threshold given in a reply); see {@link conditionOf}.
   */
  z
    .object({
      kind: z.literal('condition'),
      table: z.string(),
      where: Condition.optional(),
      column: ColumnRef.optional(),
      op: CompareOp.optional(),
      value: z.number().finite().optional(),
    })
    .refine(
      (m) => m.where !== undefined || (m.column !== undefined && m.op !== undefined && m.value !== undefined),
      'a condition needs `where` (or `column`, `op` and a number `value`)',
    ),
]);
export type WordMeaning = z.infer<typeof WordMeaning>;

/** A word the person explained in this session: applied whenever a request of the session is read. */
export const Resolution = z.object({
  word: z.string().min(1),
  means: WordMeaning,
  /**
   * How it was learnt: a reply naming it, a definition (`revenue is quantity times unit price`),
   * the model's choice among close candidates (for one turn only, never kept in the session), or
   * the tenant's glossary (read afresh at each turn's start, kept per tenant rather than per session).
   */
  from: z.enum(['reply', 'definition', 'model', 'glossary']),
});
export type Resolution = z.infer<typeof Resolution>;

/**
 * What a clarification asked about, so the reply can be read against it:
 * - `word`: a word that names nothing in the data; `candidates` are what the data has instead;
 * - `choice`: a word that names several things; the person picks one of `candidates`;
 * - `threshold`: a gradable word (`high`, `hot`) said of a measure without a number;
 * - `measure`: nothing to compute was said; `candidates` are what could be computed;
 * - `open`: a question written by a model or after failed attempts, in its own words.
 */
export const Asked = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('word'), word: z.string(), candidates: z.array(WordMeaning) }),
  z.object({ kind: z.literal('choice'), word: z.string(), candidates: z.array(WordMeaning) }),
  z.object({ kind: z.literal('threshold'), word: z.string(), table: z.string(), column: ColumnRef }),
  z.object({ kind: z.literal('measure'), candidates: z.array(WordMeaning) }),
  z.object({ kind: z.literal('open'), question: z.string() }),
]);
export type Asked = z.infer<typeof Asked>;

/** A reply waiting to be read against the question it answers (on the validator, which has the schema). */
export const PendingReply = z.object({
  asked: Asked,
  text: z.string(),
});
export type PendingReply = z.infer<typeof PendingReply>;

/** A model's own question and the person's answer, shown to the model when it drafts again. */
export const Answer = z.object({ question: z.string(), answer: z.string() });
export type Answer = z.infer<typeof Answer>;

/** How a meaning is said to the person: `orders.quantity`, `orders`, `status = 'shipped'`. */
export function describeMeaning(m: WordMeaning): string {
  switch (m.kind) {
    case 'column':
      return `${m.table}.${m.column}`;
    case 'table':
      return m.table;
    case 'value':
      return `${m.column} = '${m.value}'`;
    case 'expr':
      return describeExpr(m.expr);
    case 'condition': {
      const where = conditionOf(m);
      return conditionText(where) ?? 'a row condition';
    }
  }
}

/** A condition meaning as the plan's typed condition, whichever form it was stored in. */
export function conditionOf(m: Extract<WordMeaning, { kind: 'condition' }>): Condition {
  if (m.where) return m.where;
  // The refinement guarantees the first form's three fields when `where` is absent.
  const column = m.column ?? { column: '?' };
  return {
    kind: 'compare',
    left: { kind: 'column', ref: column },
    op: m.op ?? '=',
    value: { kind: 'number', value: m.value ?? 0 },
  };
}

export function describeExpr(e: ValueExpr): string {
  switch (e.kind) {
    case 'column':
      return e.ref.column;
    case 'number':
      return String(e.value);
    case 'arith':
      return `${describeExpr(e.left)} ${e.op} ${describeExpr(e.right)}`;
    case 'elapsed':
      return `${e.unit}s from ${e.from.column} to ${e.to.column}`;
  }
}
