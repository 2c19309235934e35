import { modelSentenceProblem, type AnswerInput } from '@nl2p/answer';
import type { Envelope } from '@nl2p/envelope';
import type { LlmClient } from '@nl2p/llm';
import { answerMessages } from '@nl2p/prompts';
import type { NodeHandlers, NodeRunContext } from '@nl2p/workflow-runtime';

/** Who writes the answer in words: the template always; a server model may word it instead. */
export type AnswerWriter = 'template' | 'model';

/** What the view says of the sentence shown: who wrote it and, when the model's was refused, why. */
export interface AnswerAuthorship {
  written_by: AnswerWriter;
  rejected?: string;
}

/**
 * `word_answer` (router-llm): the turn already holds the template's sentence and the rows. With
 * a server model, the model words the answer and its sentence replaces the template's only when
 * `modelSentenceProblem` finds nothing wrong (every number in the rows, one to three sentences).
 * A model that fails or states a number the rows do not hold never fails the turn: the
 * template's sentence stays, and the view says why.
 */
export function answerNodes({ llm, writer }: { llm: LlmClient; writer: AnswerWriter }): NodeHandlers {
  return {
    async word_answer(e, ctx) {
      const input = answerInputOf(e);
      if (writer === 'template' || !input || !e.answer) return withAuthorship(e, { written_by: 'template' });
      const template = e.answer.text;
      const sentence = await modelSentence(llm, e, input, template, ctx);
      if ('failed' in sentence) return withAuthorship(e, { written_by: 'template', rejected: sentence.failed });
      const problem = modelSentenceProblem(input, sentence.text);
      if (problem) return withAuthorship(e, { written_by: 'template', rejected: problem });
      return withAuthorship({ ...e, answer: { ...e.answer, text: sentence.text.trim() } }, { written_by: 'model' });
    },
  };
}

/** The rows the sentence is about, as the view holds them (the preview of the combined result). */
export function answerInputOf(e: Envelope): AnswerInput | null {
  const preview = e.explain.preview;
  if (!preview) return null;
  const total = e.sources_run?.combined_rows ?? preview.rows.length;
  return {
    plan: e.draft.plan,
    columns: preview.columns,
    rows: preview.rows,
    truncated: preview.truncated,
    assumptions: e.draft.assumptions,
    totalRows: total,
  };
}

async function modelSentence(
  llm: LlmClient,
  e: Envelope,
  input: AnswerInput,
  templateSentence: string,
  ctx: NodeRunContext,
): Promise<{ text: string } | { failed: string }> {
  try {
    const { text } = await llm.text({
      role: 'router',
      signal: ctx.signal,
      messages: answerMessages({
        request: e.request ?? '',
        columns: input.columns,
        rows: input.rows,
        totalRows: input.totalRows ?? input.rows.length,
        assumptions: input.assumptions,
        templateSentence,
      }),
    });
    return { text };
  } catch (err) {
    // A cancelled turn stops here; any other failure leaves the template's sentence.
    if (ctx.signal.aborted) throw err;
    return { failed: `the model could not word the answer: ${err instanceof Error ? err.message : String(err)}` };
  }
}

function withAuthorship(e: Envelope, authorship: AnswerAuthorship): Envelope {
  return e.answer ? { ...e, answer: { ...e.answer, data: authorship } } : e;
}
