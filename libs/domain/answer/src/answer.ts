import type { QueryPlan } from '@nl2p/query-plan';
import { unbackedNumbers } from './numbers';

/** What an answer sentence is written from: the plan (when there is one), the rows and what was assumed. */
export interface AnswerInput {
  plan: QueryPlan | null;
  columns: readonly string[];
  rows: readonly (readonly unknown[])[];
  /** More rows exist than the ones given. */
  truncated: boolean;
  assumptions: readonly string[];
  /** How many rows the whole result has, when more exist than `rows` (a sentence may state it). */
  totalRows?: number;
}

/** The sentence shown with an answer, and who wrote it. */
export interface AnswerText {
  text: string;
  by: 'template' | 'model';
  /** Why the model's sentence was not used (a number the rows do not hold). */
  rejected?: string;
}

const LISTED = 3;

/**
 * One to three sentences from the plan and the rows, written by rule: what the rows say (the
 * one value, the top N by a measure, or the first rows), then — when it applies — that more rows
 * exist than are shown, and that the answer rests on assumptions. An empty result says so.
 */
export function templateAnswer(input: AnswerInput): string {
  const sentences = [mainSentence(input)];
  if (input.truncated) sentences.push(`Only the first ${input.rows.length} rows are shown; there are more.`);
  if (input.assumptions.length === 1) sentences.push('It rests on one assumption, shown with the answer.');
  else if (input.assumptions.length > 1)
    sentences.push(`It rests on ${input.assumptions.length} assumptions, shown with the answer.`);
  return sentences.join(' ');
}

function mainSentence({ plan, columns, rows }: AnswerInput): string {
  if (rows.length === 0) return 'No rows match the request.';
  // A label such as `orders` is a heading, not a subject: "Orders: 93.", never "The orders is 93."
  if (rows.length === 1 && columns.length === 1) return `${capitalised(label(columns[0]))}: ${show(rows[0]?.[0])}.`;
  const measure = measureColumn(plan, columns);
  const listed = rows.slice(0, LISTED).map((r) => describeRow(r, columns, measure));
  const list = joinList(listed);
  if (plan?.limit && plan.order_by.length && measure !== null && columns.length > 1) {
    const dir = plan.order_by[0]?.direction === 'asc' ? 'bottom' : 'top';
    const which = rows.length === 1 ? `The ${dir} ${label(columns[0])}` : `The ${dir} ${rows.length} by ${label(columns[measure])}`;
    return `${which}: ${list}.`;
  }
  if (rows.length === 1) return `The result is one row: ${list}.`;
  const more = rows.length > LISTED ? `, the first ${LISTED}` : '';
  return `The result has ${rows.length} rows${more}: ${list}.`;
} // prettier-ignore

/**
 * The column a ranking is by: the sorted output when it is a computed one (an aggregate or
 * arithmetic, not a grouped name sorted alphabetically), else the last aggregate.
 */
function measureColumn(plan: QueryPlan | null, columns: readonly string[]): number | null {
  const key = plan?.order_by[0]?.key;
  if (key?.kind === 'output' && key.index < columns.length && isComputed(plan?.select[key.index])) return key.index;
  const lastAggregate =
    plan?.select.map((p) => (p.kind === 'measure' ? 'aggregate' : p.kind)).lastIndexOf('aggregate') ?? -1;
  return lastAggregate >= 0 ? lastAggregate : columns.length > 1 ? columns.length - 1 : null;
}

/** An output worth ranking by: an aggregate or arithmetic, not a column shown as it is. */
function isComputed(p: QueryPlan['select'][number] | undefined): boolean {
  if (!p) return true;
  return (
    p.kind === 'aggregate' ||
    p.kind === 'measure' ||
    (p.kind === 'value' && (p.expr.kind === 'arith' || p.expr.kind === 'elapsed'))
  );
}

function describeRow(row: readonly unknown[], columns: readonly string[], measure: number | null): string {
  if (columns.length === 1) return show(row[0]);
  if (measure === null) return row.map(show).join(', ');
  const rest = row
    .filter((_, i) => i !== measure)
    .map(show)
    .join(', ');
  return `${rest} (${show(row[measure])})`;
}

function joinList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join('; ')} and ${items[items.length - 1] ?? ''}`;
}

function capitalised(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

function label(column: string | undefined): string {
  return (column ?? 'value').replace(/_/g, ' ');
}

/** A value as people read it: numbers rounded to two decimals, nulls as "no value". */
export function show(value: unknown): string {
  if (value === null || value === undefined) return 'no value';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100);
  if (typeof value === 'string') return value.replace(/T00:00:00(\.000)?Z$/, '').replace(/\.000Z$/, '');
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/** Counts a sentence may state besides the rows' values: how many rows, listed, assumptions. */
export function countsOf(input: AnswerInput): number[] {
  const counts = [input.rows.length, Math.min(LISTED, input.rows.length), input.assumptions.length];
  return input.totalRows === undefined ? counts : [...counts, input.totalRows];
}

/** A model's sentence is short: one to three sentences, as the template's. */
const MAX_SENTENCES = 3;
const MAX_CHARS = 600;

/**
 * Why a model's sentence may not be shown for these rows, or null when it may: it must be one to
 * three sentences and every number in it must be in the rows (or be one of their counts).
 */
export function modelSentenceProblem(input: AnswerInput, sentence: string): string | null {
  const text = sentence.trim();
  if (!text) return "the model's sentence is empty";
  const sentences = text.split(/(?<=[.!?])\s+(?=\S)/).length;
  if (sentences > MAX_SENTENCES || text.length > MAX_CHARS)
    return `the model's sentence is too long (${sentences} sentences, ${text.length} characters)`;
  const unbacked = unbackedNumbers(text, input.rows, countsOf(input));
  return unbacked.length ? `the model's sentence states ${unbacked.join(', ')}, which no row holds` : null;
}

/**
 * The sentence shown: the model's, when one was written and {@link modelSentenceProblem} finds
 * nothing wrong with it; otherwise the template's, with the reason.
 */
export function chooseAnswer(input: AnswerInput, modelSentence: string | null): AnswerText {
  const template = templateAnswer(input);
  if (!modelSentence?.trim()) return { text: template, by: 'template' };
  const rejected = modelSentenceProblem(input, modelSentence);
  return rejected ? { text: template, by: 'template', rejected } : { text: modelSentence.trim(), by: 'model' };
}
