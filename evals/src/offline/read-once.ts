import { performance } from 'node:perf_hooks';
import { describeMeaning, type Reading as ProductReading } from '@nl2p/envelope';
import { targetProfile } from '@nl2p/engine';
import type { LinkSchema, PlanProposal } from '@nl2p/linking';
import type { LlmClient } from '@nl2p/llm';
import { checkPlan } from '@nl2p/query-plan';
// The reading and the clarification are plain functions of @nl2p/nodes, whose index also loads the
// NestJS worker module.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { clarificationFor } from '../../../libs/domain/nodes/src/conversation/ask';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { readWithChooser } from '../../../libs/domain/nodes/src/conversation/choose';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { readRequest } from '../../../libs/domain/nodes/src/reading';

/**
 * What the embedded default does with one request before any model is asked:
 * - `clarification`: the reading raised a question for the person;
 * - `sql`: the reading was conclusive and trusted and its plan checked and compiled: the product
 *   answers with it without a model call (the validator's `compile_plan`);
 * - `model`: inconclusive; the product would hand the request to the LLM.
 */
export type Outcome = 'clarification' | 'sql' | 'model';

/** What the report shows of a reading. */
export type ReadingSummary = Pick<
  PlanProposal,
  'confidence' | 'table' | 'unknown' | 'ambiguous' | 'doubts' | 'readings'
>;

export interface Reading {
  outcome: Outcome;
  question: string | null;
  /** The compiled SQL, when `sql`. */
  sql: string | null;
  /** Why the reading's plan was not taken, when `model`. */
  why: string | null;
  proposal: ReadingSummary;
  /** Time of reading the request (link, propose, account for every token), in ms. */
  linkMs: number;
  /** With a chooser (MODEL_CHOOSES): each close call put to the model and its pick (null: left to the person). */
  choices: ChoiceTaken[];
}

/** One close call put to the chooser, as the report shows it. */
export interface ChoiceTaken {
  slot: string;
  word: string;
  candidates: string[];
  /** The candidate the model picked, or null when it left the slot to the person (or failed). */
  chosen: string | null;
  ms: number;
}

const duckdb = targetProfile('duckdb');
const EMBEDDED_DEFAULT = { linking: true, mode: 'plan', trustLinks: true } as const;

/**
 * The product's no-model path for one request over a DuckDB schema, as the `link` node reads it
 * and `compile_plan` compiles it on the embedded default, on a first turn with no active table.
 * The one place to change when that path changes.
 */
export function readOnce(request: string, schema: LinkSchema): Reading {
  const started = performance.now();
  const r = readRequest(request, schema, EMBEDDED_DEFAULT);
  return outcomeOf(r, schema, performance.now() - started, []);
}

/**
 * {@link readOnce} with the model as a chooser (MODEL_CHOOSES): a close call the reading would ask
 * about is put to `llm` first, as the drafter does before asking the person, and the outcome is
 * that of the reading after its picks. Only requests that reach a choice call the model.
 */
export async function readOnceChoosing(request: string, schema: LinkSchema, llm: LlmClient): Promise<Reading> {
  const started = performance.now();
  const first = readRequest(request, schema, EMBEDDED_DEFAULT);
  const linkMs = performance.now() - started;
  const o = { llm, schema, active: null, options: EMBEDDED_DEFAULT, resolutions: [] };
  const chosenAt = performance.now();
  const { reading, choices } = await readWithChooser(first, o);
  const ms = (performance.now() - chosenAt) / Math.max(1, choices.length);
  const taken = choices.map(({ choice, chosen }) => ({
    slot: choice.slot,
    word: choice.word,
    candidates: choice.candidates.map(describeMeaning),
    chosen: chosen ? describeMeaning(chosen.means) : null,
    ms,
  }));
  return outcomeOf(reading, schema, linkMs, taken);
}

/** What the product does with a reading on a first turn: ask, answer with its plan, or hand it to the model. */
function outcomeOf(r: ProductReading, schema: LinkSchema, linkMs: number, choices: ChoiceTaken[]): Reading {
  const proposal: ReadingSummary = {
    confidence: r.confidence,
    table: r.table,
    unknown: r.unknown,
    ambiguous: r.ambiguous,
    doubts: r.doubts,
    readings: r.assumptions,
  };
  const base = { proposal, linkMs, question: null, sql: null, why: null, choices };

  const question = clarificationFor(r, schema, null);
  if (question) return { ...base, outcome: 'clarification', question: question.question };
  if (!r.plan) return { ...base, outcome: 'model', why: 'no plan' };
  if (!r.trusted) return { ...base, outcome: 'model', why: `not trusted: confidence ${r.confidence}` };
  const checked = checkPlan(r.plan, schema.tables);
  if (!checked.ok) return { ...base, outcome: 'model', why: `plan check: ${checked.errors.join('; ')}` };
  try {
    const compiled = duckdb.compiler.compile(checked.plan, schema.tables);
    return { ...base, outcome: 'sql', sql: compiled.sql };
  } catch (err) {
    return { ...base, outcome: 'model', why: `compile: ${err instanceof Error ? err.message : String(err)}` };
  }
}
