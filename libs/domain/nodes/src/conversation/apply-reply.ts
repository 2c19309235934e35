import { describeMeaning, type Asked, type Envelope } from '@nl2p/envelope';
import type { LinkSchema } from '@nl2p/linking';
import type { QueryPlan } from '@nl2p/query-plan';
import { readReply, type ReplyReading } from './read-reply';

/**
 * The envelope after the person's reply to a clarification (`e.reply`) is read against what was
 * asked: a resolved word joins the session's resolutions (the request is read again with it), a
 * request said again replaces the request, an answer to a model's question is kept for the model,
 * and a reply that cannot be read asks again, saying why. The request's text is never extended.
 */
export function applyReply(e: Envelope, schema: LinkSchema, readAlone: (text: string) => QueryPlan | null): Envelope {
  const reply = e.reply;
  if (!reply) return e;
  const tables = [e.active_stream, e.reading?.table, ...(e.reading?.tables.map((t) => t.table) ?? [])].filter(
    (t): t is string => !!t,
  );
  const read = readReply(reply.asked, reply.text, { schema, tables, shapeOf: (t) => shapeOf(readAlone(t)) });
  const base: Envelope = { ...e, reply: null };
  return withReply(base, reply.asked, read);
}

function withReply(e: Envelope, asked: Asked, read: ReplyReading): Envelope {
  switch (read.kind) {
    case 'resolved': {
      const word = read.resolution.word.toLowerCase();
      // A later explanation of the same word replaces the earlier one.
      const kept = e.resolutions.filter((r) => r.word.toLowerCase() !== word);
      return { ...e, resolutions: [...kept, read.resolution] };
    }
    case 'restated':
      return { ...e, request: read.request, answers: [] };
    case 'answer':
      return { ...e, answers: [...e.answers, { question: read.question, answer: read.answer }] };
    case 'cancel':
      return {
        ...e,
        answer: { kind: 'message', text: 'Dropped that request. Ask something else whenever you like.' },
      };
    case 'unreadable':
      return { ...e, interrupt: reAsk(asked, read.why) };
  }
}

/** The same question again, saying why the reply did not answer it and what would. */
function reAsk(asked: Asked, why: string): NonNullable<Envelope['interrupt']> {
  const options =
    asked.kind === 'word' || asked.kind === 'choice'
      ? asked.candidates.map((c, i) => `${i + 1}. ${describeMeaning(c)}`).join(', ')
      : '';
  const about =
    asked.kind === 'word' || asked.kind === 'choice' || asked.kind === 'threshold'
      ? `What should I use for '${asked.word}'?`
      : asked.kind === 'measure'
        ? 'What should I compute, and from which data?'
        : asked.question;
  const expected =
    asked.kind === 'threshold'
      ? 'Answer with a number, e.g. "above 30"'
      : 'Answer with a name from the data' +
        (options ? ` or a number from the list (${options})` : '') +
        ', an expression such as "quantity times unit price", or a definition such as "revenue is quantity times unit price"';
  return {
    type: 'need_clarification',
    question: `${why}, so I cannot use that reply. ${about} ${expected}; "never mind" drops the request.`,
    choices: asked.kind === 'word' || asked.kind === 'choice' ? asked.candidates.map(describeMeaning) : null,
    asked,
  };
}

/** See `ReplyContext.shapeOf`. */
function shapeOf(plan: QueryPlan | null): 'query' | 'plan' | null {
  if (!plan) return null;
  const aggregates = plan.select.some((p) => p.kind === 'aggregate' || p.kind === 'measure');
  const query = plan.group_by.length > 0 || !!plan.time_bucket || !!plan.window || (aggregates && !!plan.where);
  return query ? 'query' : 'plan';
}
