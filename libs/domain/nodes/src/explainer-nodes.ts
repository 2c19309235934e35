import { PIPELINE_ID_PLACEHOLDER, type Envelope } from '@nl2p/envelope';
import { TargetQueryError, targetProfile } from '@nl2p/engine';
import type { Preview } from '@nl2p/envelope';
import type { Engines } from './clients';
import { openQuestion } from './plan-drafting';
import { contradictions } from './plan-edits/contradictions';
import type { NodeHandlers } from '@nl2p/workflow-runtime';
import { errorMessage } from '@nl2p/workflow-runtime';

/** Nodes run by the `explainer` service: the engine's plan, cleanup, and the person's decision. */
export function explainerNodes({ engines }: { engines: Engines }): NodeHandlers {
  return {
    async explain(e) {
      const engine = engines.for(e.target);
      const tmpId = e.validation.tmp_pipeline_id;
      let pretty: string;
      try {
        pretty = tmpId ? await engine.explain(tmpId, e.draft.sql ?? '') : '(no plan: nothing was validated)';
      } catch (err) {
        // The temp pipeline must still be deleted, so a failed explain does not stop the turn.
        pretty = `(the engine could not explain the plan: ${errorMessage(err)})`;
      }
      const sql = e.draft.sql ?? '';
      const request = engine.buildPipelineRequest(sql, e.pipeline_id ?? PIPELINE_ID_PLACEHOLDER, e.sink);
      // SQL targets show real rows, normally those validation already read; a preview that fails
      // (e.g. its time limit) is an error the person must see, not a reason to hide the SQL.
      let preview: Preview | null = e.explain.preview;
      let previewError: string | null = e.explain.preview_error;
      if (engine.preview && !preview && !previewError) {
        try {
          preview = await engine.preview(sql);
        } catch (err) {
          if (!(err instanceof TargetQueryError)) throw err;
          previewError = err.message;
        }
      }
      // What the turn tells the person about the SQL is checked against the engine's own plan.
      const review = engines.profile(e.target).reviewAssumptions;
      const assumptions = review && tmpId ? review(e.draft.plan, pretty, e.draft.assumptions) : e.draft.assumptions;
      return {
        ...e,
        draft: { ...e.draft, assumptions },
        explain: { pretty, pipeline_request: request, preview, preview_error: previewError },
      };
    },

    async cleanup(e) {
      if (e.validation.tmp_pipeline_id) await engines.for(e.target).cleanup(e.validation.tmp_pipeline_id);
      return { ...e, validation: { ...e.validation, tmp_pipeline_id: null } };
    },

    async confirm(e) {
      // What the person must know before confirming is said first, with the reason.
      const warnings = warningsOf(e);
      const careful = warnings.length ? `Careful: ${warnings.join('; ')}. ` : '';
      return {
        ...e,
        draft: { ...e.draft, warnings },
        interrupt: {
          type: 'need_confirm',
          question: `${careful}${confirmQuestion(e)}`,
          choices: null,
        },
      };
    },

    async give_up(e) {
      return { ...e, interrupt: openQuestion(giveUpMessage(e)) };
    },
  };
}

/**
 * What confirming does, said per kind of target: a streaming engine's SQL becomes a pipeline
 * request the person applies; a database's answer is a read-only query with nothing to deploy.
 */
function confirmQuestion(e: Envelope): string {
  return targetProfile(e.target).streaming
    ? 'The engine accepted this SQL. Confirm to take the pipeline request (you apply it yourself), or send feedback to change it.'
    : 'The database ran this SQL read-only. Confirm to keep it as the answer (nothing is changed or deployed), or send feedback to change it.';
}

/** What was tried, why each attempt failed, and the real names the person can use. */
export function giveUpMessage(e: Envelope): string {
  if (e.user_input.sql !== undefined) return editedSqlRefused(e);
  const tried = e.validation.failures
    .map(
      (f) =>
        `- attempt ${f.attempt} (${f.stage === 'local' ? 'local check' : 'engine'}): ${f.sql}\n  failed: ${f.error}`,
    )
    .join('\n');
  const columns = e.stream_schema?.columns.map((c) => c.name).join(', ') ?? '(unknown)';
  return [
    `I could not produce SQL the engine accepts in ${e.validation.max_attempts} attempts.`,
    tried,
    `Stream ${e.active_stream ?? '(none)'} has these columns: ${columns}.`,
    'Could you rephrase the request using these names, or say what to change?',
  ].join('\n');
}

/** The person's own SQL did not pass a check: why, in the check's words, and what they can do. */
function editedSqlRefused(e: Envelope): string {
  const failure = e.validation.failures[e.validation.failures.length - 1];
  const where = failure?.stage === 'engine' ? 'The engine refused your SQL' : 'Your SQL did not pass the check';
  return `${where}: ${failure?.error ?? e.validation.error ?? 'no reason given'}. Edit it again, or ask in words.`;
}

/**
 * Why the accepted SQL may still not be what the person wants: conditions that contradict each
 * other, or (SQL targets) a change that returns no rows where the query it changed returned some.
 */
export function warningsOf(e: Envelope): string[] {
  const out = contradictions(e.draft.plan);
  const rows = e.explain.preview?.rows.length;
  if (rows === 0 && e.previous_rows) {
    out.push(`this returns no rows, where the query before your change returned ${e.previous_rows}`);
  }
  return out;
}
