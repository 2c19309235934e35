import { linkWithIndex } from './link';
import { buildIndex, type SchemaIndex } from './schema-index';
import { singular, tokenize } from './text';
import type { LinkSchema } from './types';

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
function tableNamed(word: string, index: SchemaIndex): string | null {
  const w = word.replace(/[^\p{L}\p{N}_-]+/gu, '').toLowerCase();
  if (!w) return null;
  const hit = index.tables.find((t) => {
    const n = t.name.toLowerCase();
    return n === w || singular(n) === singular(w);
  });
  return hit?.name ?? null;
}

/**
 * Decides the obvious intents without a model: asking what tables or streams exist, asking about
 * one table's columns, or a request whose words name data. Null when the words leave it open.
 */
export function classifyIntent(text: string, schema: LinkSchema): 'list_streams' | 'describe_stream' | 'nl2sql' | null {
  const index = buildIndex(schema);
  const tokens = tokenize(text).filter((t) => t.kind !== 'punct');
  const words = tokens.map((t) => singular(t.norm));

  for (const re of DESCRIBE_CUES) {
    const m = re.exec(text);
    if (m?.[1] && tableNamed(m[1], index)) return 'describe_stream';
  }
  // "list the tables", "what streams are there", "show me all sources"
  const catalogNoun = words.findIndex((w) => CATALOG_NOUNS.has(w));
  if (catalogNoun >= 0) {
    const plural = tokens[catalogNoun] && singular(tokens[catalogNoun].norm) !== tokens[catalogNoun].norm;
    const asks = words
      .slice(0, catalogNoun)
      .some((w) => LIST_VERBS.has(w) || w === 'how' || w === 'any' || w === 'available');
    const named = tokens.some((t) => tableNamed(t.norm, index));
    if (plural && asks && !named) return 'list_streams';
  }

  const links = linkWithIndex(text, index);
  const data = links.terms.some(
    (t) => t.values.length || t.columns.some((c) => c.match !== 'concept' && c.match !== 'generic'),
  );
  const asked =
    links.aggregates.length > 0 || links.comparisons.length > 0 || links.groups.length > 0 || links.orders.length > 0;
  if (data) return 'nl2sql';
  if (asked && links.terms.some((t) => t.tables.length)) return 'nl2sql';
  return null;
}
