import { READING_LINK_KINDS } from '@nl2p/envelope';
import { fillerReason, type FillerReason } from './lexicon';
import { tokenize } from './text';
import type { Links, Span, TermLink } from './types';

/**
 * What a link that covers a token is: a term naming data (a table, a column, a value, or several
 * of these at once: `term`), or one of the linker's cues. The envelope's Reading contract owns the list.
 */
export const LINK_KINDS = READING_LINK_KINDS;
export type LinkKind = (typeof LINK_KINDS)[number];

/**
 * What consumed one token of the request: the kind of link that covers it, or `filler` with the
 * reason it carries no data, or `unexplained` (a word neither linked nor known to be filler: it
 * may change the answer, and nothing read it).
 */
export type TokenAccount =
  | { token: string; consumed_by: LinkKind; reason: null }
  | { token: string; consumed_by: 'filler'; reason: FillerReason }
  | { token: string; consumed_by: 'unexplained'; reason: null };

/**
 * Every token of the request with what consumed it, in order (`links.tokens`). When several links
 * cover a token, the narrowest says what it is (`30 degrees` is the number inside the comparison
 * `above 30 degrees`, `device` the term inside the group `per device`); on equal spans a term comes
 * first, then the cues in {@link LINK_KINDS} order. A content word the linker found naming nothing
 * (`links.unlinked`) is unexplained even when the lexicon knows it.
 */
export function accountTokens(links: Links): TokenAccount[] {
  const covering = coveringLinks(links);
  const unlinked = new Set<number>();
  for (const u of links.unlinked) for (let k = u.start; k < u.end; k++) unlinked.add(k);
  const tokens = tokenize(links.text);
  // The linker's own tokens; a re-tokenisation that disagrees (it cannot, today) falls back to
  // the raw token in lower case.
  const sameTokens = tokens.length === links.tokens.length;
  // A word an arithmetic defines (`revenue` in `revenue, quantity times unit price`) stands for it.
  const defined = new Set(links.arithmetic.flatMap((a) => a.defines));
  return links.tokens.map((token, i): TokenAccount => {
    const by = covering[i];
    if (unlinked.has(i)) return { token, consumed_by: 'unexplained', reason: null };
    if (by) return { token, consumed_by: by.kind, reason: null };
    const t = sameTokens ? tokens[i] : undefined;
    if (defined.has(t?.norm ?? token.toLowerCase())) return { token, consumed_by: 'arithmetic', reason: null };
    const punct = t ? t.kind === 'punct' : !/[\p{L}\p{N}]/u.test(token);
    if (punct) return { token, consumed_by: 'filler', reason: 'punctuation' };
    const reason = fillerReason(t?.norm ?? token.toLowerCase());
    return reason ? { token, consumed_by: 'filler', reason } : { token, consumed_by: 'unexplained', reason: null };
  });
}

/** The words no link consumed and the lexicon does not know as filler, in order, adjacent ones joined. */
export function unexplainedTokens(accounts: readonly Pick<TokenAccount, 'token' | 'consumed_by'>[]): string[] {
  const out: string[] = [];
  let run: string[] = [];
  accounts.forEach((a) => {
    if (a.consumed_by === 'unexplained') run.push(a.token);
    else if (run.length) {
      out.push(run.join(' '));
      run = [];
    }
  });
  if (run.length) out.push(run.join(' '));
  return out;
}

/** What a term link names: one kind of thing, or several (`device`: a table and its id columns). */
function termKind(t: TermLink): LinkKind {
  const kinds: LinkKind[] = [];
  if (t.tables.length) kinds.push('table');
  if (t.columns.length) kinds.push('column');
  if (t.values.length) kinds.push('value');
  return kinds.length === 1 ? (kinds[0] ?? 'term') : 'term';
}

/** Per token, the narrowest link covering it (ties: the earlier kind of LINK_KINDS). */
function coveringLinks(links: Links): ({ kind: LinkKind; width: number } | undefined)[] {
  const spans: { kind: LinkKind; span: Span }[] = [
    ...links.terms.map((t) => ({ kind: termKind(t), span: t })),
    ...links.numbers.map((span) => ({ kind: 'number' as const, span })),
    ...links.comparisons.map((span) => ({ kind: 'comparison' as const, span })),
    ...links.setComparisons.map((span) => ({ kind: 'comparison' as const, span })),
    ...links.quantifiedComparisons.map((span) => ({ kind: 'comparison' as const, span })),
    ...links.aggregates.map((span) => ({ kind: 'aggregate' as const, span })),
    ...links.groups.map((span) => ({ kind: 'group' as const, span })),
    ...links.timeRanges.map((span) => ({ kind: 'time_range' as const, span })),
    ...links.timeGroups.map((span) => ({ kind: 'time_group' as const, span })),
    ...links.orders.map((span) => ({ kind: 'order' as const, span })),
    ...links.arithmetic.map((span) => ({ kind: 'arithmetic' as const, span })),
    ...links.relations.map((span) => ({ kind: 'relation' as const, span })),
    ...links.textMatches.map((span) => ({ kind: 'text_match' as const, span })),
    ...links.ratios.flatMap((r) => r.cues.map((span) => ({ kind: 'ratio' as const, span }))),
    // A day of the week is a condition on time, as a range is.
    ...(links.weekDays ?? []).map((span) => ({ kind: 'time_range' as const, span })),
    // `shared by A and B`: what relates the answer to each set.
    ...(links.allOf ?? []).flatMap((a) => (a.cue ? [{ kind: 'relation' as const, span: a.cue }] : [])),
  ];
  const rank = (k: LinkKind) => (k === 'table' || k === 'column' || k === 'value' ? 0 : LINK_KINDS.indexOf(k));
  const out: ({ kind: LinkKind; width: number } | undefined)[] = links.tokens.map(() => undefined);
  for (const { kind, span } of spans) {
    const width = span.end - span.start;
    for (let k = Math.max(0, span.start); k < Math.min(span.end, out.length); k++) {
      const seen = out[k];
      if (!seen || width < seen.width || (width === seen.width && rank(kind) < rank(seen.kind))) {
        out[k] = { kind, width };
      }
    }
  }
  return out;
}
