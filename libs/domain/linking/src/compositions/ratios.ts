import { tokenize, type Token } from '../text';
import type { Links, PlanProposal, RatioLink, RatioSide } from '../types';
import type { Composition, CompositionContext } from './composition';
import { combineSides, type SideReading } from './ratio-sides';

/**
 * `the ratio of A to B`, `what percentage of orders were returned`: each side is read as a
 * request of its own — the words around the ratio with that side in its place (`the number of
 * restaurants with a rating above 4 in San Francisco`) — and the two plans are composed into one
 * figure: each side's aggregate over its own rows (a filtered aggregate), divided (times 100 for
 * a percentage), with what both sides share (joins, groups, conditions) said once. Two measures
 * of one row (`the ratio of helpfulness score to clarity score for each course`) divide row by
 * row. When the sides do not read alike (other tables, other groups), the plain reading is kept
 * with a doubt, so the model or the person decides.
 */
export const ratios: Composition = {
  name: 'ratios',
  compose(links, ctx) {
    const r = links.ratios[0];
    if (!r) return null;
    if (links.ratios.length > 1) return withDoubt(ctx.readLinks(links), `two ratios in one request are not composed`);
    const tokens = tokenize(links.text);
    const perRow = rowByRow(links, r, tokens, ctx);
    if (perRow) return perRow;
    // `the highest and the lowest unit price`: a side that names no data shares the other's last noun.
    const shared = sharedNoun(links, r, tokens);
    const num = readSide(links.text, tokens, r, r.numerator, ctx, shared);
    const den = readSide(links.text, tokens, r, r.denominator, ctx);
    const composed = combineSides(r, num, den);
    return typeof composed === 'string' ? withDoubt(ctx.readLinks(links), `"${r.text}": ${composed}`) : composed;
  },
};

function withDoubt(p: PlanProposal, doubt: string): PlanProposal {
  return { ...p, confidence: p.confidence === 'none' ? 'none' : 'partial', doubts: [...p.doubts, doubt] };
}

/** The side read in the ratio's place: the words before and after the ratio kept, the side's aggregate said when implied. */
function readSide(
  text: string,
  tokens: readonly Token[],
  r: RatioLink,
  side: RatioSide,
  ctx: CompositionContext,
  noun = '',
): SideReading {
  const lead = side.implied === 'count' ? 'the number of ' : side.implied === 'sum' ? 'the total ' : '';
  const said = `${lead}${words(text, tokens, side.start, side.end)}${noun ? ` ${noun}` : ''}`;
  const request = around(text, tokens, r, said);
  return { side, request, ...ctx.read(request) };
}

/**
 * Two measures of one row, nothing else said of either side (`the ratio of capacity to range for
 * each aircraft`): `capacity divided by range`, read as the arithmetic it is. Kept only when that
 * reading divides row by row (no aggregate): per group, the sides are totals (combineSides).
 */
function rowByRow(links: Links, r: RatioLink, tokens: readonly Token[], ctx: CompositionContext): PlanProposal | null {
  // One measure said, beside at most the name of its table (`aircraft capacity`).
  const bare = (side: RatioSide) =>
    side.implied === 'sum' &&
    links.terms.filter((t) => t.start >= side.start && t.end <= side.end && !t.tables.length).length === 1;
  if (r.whole || r.scale !== 1 || !bare(r.numerator) || !bare(r.denominator)) return null;
  const divided = `${words(links.text, tokens, r.numerator.start, r.numerator.end)} ${r.op === '-' ? 'minus' : 'divided by'} ${words(links.text, tokens, r.denominator.start, r.denominator.end)}`; // prettier-ignore
  const { proposal } = ctx.read(around(links.text, tokens, r, divided));
  const select = proposal.plan?.select ?? [];
  const divides = select.some((p) => p.kind === 'value' && p.expr.kind === 'arith' && p.expr.op === r.op);
  if (!divides || select.some((p) => p.kind !== 'value')) return null;
  return { ...proposal, readings: [...proposal.readings, `"${r.text}" is read row by row, as ${divided}`] };
}

/** The denominator's last noun when the numerator names no data (`the highest and the lowest unit price`), else ''. */
function sharedNoun(links: Links, r: RatioLink, tokens: readonly Token[]): string {
  const inside = (side: RatioSide) => links.terms.filter((t) => t.start >= side.start && t.end <= side.end);
  const last = inside(r.denominator).at(-1);
  return inside(r.numerator).length === 0 && last ? words(links.text, tokens, last.start, last.end) : '';
}

/** The request with the ratio's words replaced by `inner` (an article just before it dropped: `the the number of`). */
function around(text: string, tokens: readonly Token[], r: RatioLink, inner: string): string {
  const before = text.slice(0, tokens[r.start]?.start ?? 0).replace(/\b(the|a|an)\s*$/i, '');
  const after = text.slice(tokens[r.end - 1]?.end ?? text.length);
  return `${before}${inner}${after}`.replace(/\s+/g, ' ').trim();
}

/** The request's own words from token `start` to token `end` (exclusive). */
function words(text: string, tokens: readonly Token[], start: number, end: number): string {
  return text.slice(tokens[start]?.start ?? 0, tokens[end - 1]?.end ?? 0);
}
