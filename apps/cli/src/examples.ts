import type { Example } from '@nl2p/gateway-client';
import type { GatewayApi } from './api';
import type { Style } from './style';

// The tenant's confirmed questions from the terminal: the REPL's /examples and the one-shot
// `nl2pipeline examples …`. A question confirmed by mistake is forgotten by the id the listing shows,
// so it is neither shown beside new requests nor reused.

export type ExamplesAction = { name: 'list' } | { name: 'forget'; id: string };

export const EXAMPLES_USAGE = 'usage: /examples [list | forget <id>]';

/** `list` or `forget <id>` after `/examples` (or `nl2pipeline examples`); a usage line otherwise. */
export function parseExamplesArgs(args: string[]): ExamplesAction | string {
  const [verb, ...rest] = args;
  switch (verb?.toLowerCase()) {
    case undefined:
    case 'list':
      return rest.length ? EXAMPLES_USAGE : { name: 'list' };
    case 'forget':
      return rest.length === 1 ? { name: 'forget', id: rest[0] } : 'usage: /examples forget <id>';
    default:
      return EXAMPLES_USAGE;
  }
}

/** The confirmed questions as lines: id, the question, then its SQL and when it was confirmed. */
export function renderExamples(examples: readonly Example[], s: Style): string {
  if (!examples.length) return s.dim('no confirmed questions yet: a question you confirm is kept here');
  return examples
    .map((e) => {
      const reuse = e.reusable ? '' : ', not reusable';
      return `${s.bold(e.id)}  ${e.request}\n  ${s.dim(`${e.sql}  (${e.target}, ${e.confirmed_at}${reuse})`)}`;
    })
    .join('\n');
}

/** Runs one action through the gateway: `out` is the result (stdout), `note` a status line (stderr). */
export async function runExamplesAction(
  api: GatewayApi,
  a: ExamplesAction,
  s: Style,
): Promise<{ out?: string; note?: string }> {
  if (a.name === 'list') return { out: renderExamples(await api.examples(), s) };
  await api.forgetExample(a.id);
  return { note: `forgot the confirmed question ${a.id}` };
}
