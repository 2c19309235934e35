import { linkRequest } from './link';
import { singular, tokenize } from './text';
import type { LinkSchema, Links } from './types';

const LIST_VERBS = new Set(['list', 'show', 'which', 'what', 'name', 'enumerate', 'display', 'give', 'get']);
const CATALOG_NOUNS = new Set(['table', 'stream', 'source', 'dataset', 'collection', 'topic']);
const DESCRIBE_CUES = [
  /\bdescribe\s+(?:the\s+)?(?:table\s+|stream\s+)?(\S+)/i,
  /\b(?:columns|fields|schema|structure|attributes)\s+(?:of|in|for)\s+(?:the\s+)?(?:table\s+|stream\s+)?(\S+)/i,
  /\bwhat(?:'s| is| does)\s+(?:in|inside)\s+(?:the\s+)?(?:table\s+|stream\s+)?(\S+)/i,
  /\bwhat\s+(?:columns|fields)\s+(?:does|do)\s+(?:the\s+)?(?:table\s+|stream\s+)?(\S+)\s+have/i,
  /\b(\S+)(?:'s)?\s+(?:columns|schema|fields)\b/i,
];

/** The table a word names outright, singular or plural, any case. */
function tableNamed(word: string, schema: LinkSchema): string | null {
  const w = word.replace(/[^\p{L}\p{N}_-]+/gu, '').toLowerCase();
  if (!w) return null;
  const hit = Object.keys(schema.tables).find((name) => {
    const n = name.toLowerCase();
    return n === w || singular(n) === singular(w);
  });
  return hit ?? null;
}

/**
 * Decides the obvious intents without a model: asking what tables or streams exist, asking about
 * one table's columns, or a request whose words name data. Null when the words leave it open.
 * `links`: the request's links when the caller has them already (the link node), so it is not
 * linked twice.
 */
export function classifyIntent(
  text: string,
  schema: LinkSchema,
  links?: Links,
): 'list_streams' | 'describe_stream' | 'nl2sql' | null {
  const tokens = tokenize(text).filter((t) => t.kind !== 'punct');
  const words = tokens.map((t) => singular(t.norm));

  for (const re of DESCRIBE_CUES) {
    const m = re.exec(text);
    if (m?.[1] && tableNamed(m[1], schema)) return 'describe_stream';
  }
  // "list the tables", "what streams are there", "show me all sources"
  const catalogNoun = words.findIndex((w) => CATALOG_NOUNS.has(w));
  if (catalogNoun >= 0) {
    const plural = tokens[catalogNoun] && singular(tokens[catalogNoun].norm) !== tokens[catalogNoun].norm;
    const asks = words
      .slice(0, catalogNoun)
      .some((w) => LIST_VERBS.has(w) || w === 'how' || w === 'any' || w === 'available');
    const named = tokens.some((t) => tableNamed(t.norm, schema));
    if (plural && asks && !named) return 'list_streams';
  }

  const { terms, aggregates, comparisons, groups, orders } = links ?? linkRequest(text, schema);
  const data = terms.some(
    (t) => t.values.length || t.columns.some((c) => c.match !== 'concept' && c.match !== 'generic'),
  );
  const asked = aggregates.length > 0 || comparisons.length > 0 || groups.length > 0 || orders.length > 0;
  if (data) return 'nl2sql';
  if (asked && terms.some((t) => t.tables.length)) return 'nl2sql';
  return null;
}
