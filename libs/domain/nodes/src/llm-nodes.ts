import { LlmError, type LlmClient } from '@nl2p/llm';
import { matchStream } from '@nl2p/graph';
import type { NodeHandlers } from '@nl2p/queue';
import {
  QUESTION_PREFIX,
  ReviseOutput,
  RouterOutput,
  draftMessages,
  reviseMessages,
  routerMessages,
} from '@nl2p/prompts';
import { extractSql } from '@nl2p/sql-guard';
import type { Grounding } from './grounding';

/** Nodes run by the `router-llm` service. */
export function routerNodes({ llm }: { llm: LlmClient }): NodeHandlers {
  return {
    async route_intent(e) {
      const { value } = await llm.json({
        role: 'router',
        messages: routerMessages(e),
        schema: RouterOutput,
        schemaName: 'route_intent',
      });
      // The model may only point at streams the engine has; anything else is ignored.
      const stream = value.stream ? (matchStream(e.streams, value.stream) ?? null) : null;
      if (value.intent === 'ask_user') {
        const question = value.question?.trim() || 'Could you say more precisely what you want to compute?';
        return { ...e, intent: 'ask_user', interrupt: { type: 'need_clarification', question, choices: null } };
      }
      return { ...e, intent: value.intent, requested_stream: stream ?? e.requested_stream };
    },
  };
}

/** Nodes run by the `sql-drafter` service: the streamed first draft and the JSON revision. */
export function drafterNodes({ llm, grounding }: { llm: LlmClient; grounding: Grounding }): NodeHandlers {
  return {
    async draft_sql(e, ctx) {
      const catalog = await grounding.catalog(e.target, e.digest_hash);
      const pending: Promise<void>[] = [];
      const { text } = await llm.text({
        role: 'preview',
        messages: draftMessages(e, catalog),
        onDelta: (delta) => pending.push(ctx.emit({ type: 'draft_delta', node: 'draft_sql', delta })),
      });
      await Promise.all(pending);
      const attempt = e.validation.attempt + 1;
      const question = parseQuestion(text);
      if (question) {
        return {
          ...e,
          draft: { ...e.draft, preview_text: text, sql: null, questions: [question] },
          validation: { ...e.validation, attempt },
          interrupt: { type: 'need_clarification', question, choices: null },
        };
      }
      const sql = extractSql(text);
      if (!sql) throw new LlmError('the model answered with neither SQL nor a question', true);
      return {
        ...e,
        draft: { preview_text: text, sql, questions: [], assumptions: [] },
        validation: { ...e.validation, attempt, ok: false, error: null, error_stage: null },
      };
    },

    async revise_sql(e) {
      const catalog = await grounding.catalog(e.target, e.digest_hash);
      const { value, text } = await llm.json({
        role: 'reasoning',
        messages: reviseMessages(e, catalog),
        schema: ReviseOutput,
        schemaName: 'revise_sql',
      });
      const attempt = e.validation.attempt + 1;
      const sql = value.sql ? extractSql(value.sql) : '';
      if (!sql) {
        const question = value.questions.join(' ') || 'I could not fix the query. What should it compute?';
        return {
          ...e,
          draft: { ...e.draft, preview_text: text, questions: value.questions },
          validation: { ...e.validation, attempt },
          interrupt: { type: 'need_clarification', question, choices: null },
        };
      }
      return {
        ...e,
        feedback: null,
        draft: { preview_text: text, sql, questions: value.questions, assumptions: value.assumptions },
        validation: { ...e.validation, attempt, ok: false, error: null, error_stage: null },
      };
    },
  };
}

/** `QUESTION: …` on the first non-empty line (fences and quotes tolerated). */
export function parseQuestion(text: string): string | null {
  const first = text
    .replace(/```[a-z]*\n?/gi, '')
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean);
  if (!first?.toUpperCase().startsWith(QUESTION_PREFIX)) return null;
  return first.slice(QUESTION_PREFIX.length).trim() || null;
}
