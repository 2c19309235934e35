/**
 * Requests to change data ("DROP TABLE orders", "delete all cancelled orders", "update the price
 * of …", "insert a row …"). The product only reads, so such a request is answered at once with
 * what it can do instead, before any model or engine sees it: read as data, "DROP TABLE orders"
 * only produces a confusing "I could not find 'TABLE'".
 *
 * Only an imperative at the start of the request counts ("please delete …", "can you drop …"),
 * so questions about changes ("which orders were deleted", "price updates per month") stay
 * questions. Each rule names one verb family; the first that matches wins.
 */

interface WriteRule {
  name: string;
  pattern: RegExp;
  /** The answer for a match: what the request would have touched, as rows the person can ask for. */
  answer(m: RegExpExecArray): string;
}

const CAN_ONLY_READ = 'I only read data; I can show you the rows that';
const OBJECT_KINDS = '(?:table|stream|view|database|schema|index|collection|topic)';

/** `orders`, `"orders"`, `main.orders;` → `orders`. */
function nameOf(raw: string): string {
  return raw.replace(/[;,]+$/, '').replace(/^["'`[]|["'`\]]$/g, '');
}

/** The words a request would have written to, trimmed of a statement's trailing punctuation. */
function phrase(raw: string): string {
  return raw
    .split(';')[0]
    .replace(/[.!?\s]+$/, '')
    .trim();
}

function suggest(rows: string): string {
  return rows ? ` — ask "show ${rows}"` : ' — ask for them in words';
}

const RULES: WriteRule[] = [
  {
    name: 'drop or empty a table',
    pattern: new RegExp(`^(?:drop|truncate)\\s+(?:${OBJECT_KINDS}\\s+)?(?:if\\s+exists\\s+)?(\\S+)`, 'i'),
    answer: (m) => `${CAN_ONLY_READ} are in ${nameOf(m[1])}${suggest(nameOf(m[1]))}.`,
  },
  {
    // Schema changes and permissions: there is a table to read, never a change to make.
    name: 'create, alter or grant',
    pattern: new RegExp(
      `^(?:create|alter|rename)\\s+(?:or\\s+replace\\s+)?${OBJECT_KINDS}\\s+(?:if\\s+(?:not\\s+)?exists\\s+)?(\\S+)|^(?:grant|revoke)\\b`,
      'i',
    ),
    answer: (m) =>
      m[1]
        ? `${CAN_ONLY_READ} are in ${nameOf(m[1])}${suggest(nameOf(m[1]))}.`
        : `${CAN_ONLY_READ} you can already see — ask for them in words.`,
  },
  {
    // SQL's own form: `DELETE FROM orders WHERE status = 'cancelled'`.
    name: 'delete from a table',
    pattern: /^delete\s+from\s+(\S+)(?:\s+(where\s+.+))?/i,
    answer: (m) => {
      const rows = phrase(`${nameOf(m[1])}${m[2] ? ` ${m[2]}` : ''}`);
      return `${CAN_ONLY_READ} it would delete${suggest(rows)}.`;
    },
  },
  {
    name: 'delete rows in words',
    pattern: /^(?:delete|erase|purge|wipe\s+out|wipe)\s+(.+)/i,
    answer: (m) => `${CAN_ONLY_READ} it would delete${suggest(phrase(m[1]))}.`,
  },
  {
    // SQL's own form: `UPDATE orders SET amount = 0 WHERE id = 3`.
    name: 'update a table',
    pattern: /^update\s+(\S+)\s+set\s+.+?(?:\s+(where\s+.+))?$/i,
    answer: (m) => {
      const rows = phrase(`${nameOf(m[1])}${m[2] ? ` ${m[2]}` : ''}`);
      return `${CAN_ONLY_READ} it would change${suggest(rows)}.`;
    },
  },
  {
    // "update the price of product 5 to 10": a determiner tells the verb from the noun
    // ("update frequency per device" is a question about updates).
    name: 'change values in words',
    pattern:
      /^(?:update|modify|change|set)\s+((?:the|all|every|each|a|an|my|this|that|these|those)\s+.+?)(?:\s+(?:to|=|into|by)\s+[^;]+)?$/i,
    answer: (m) => `${CAN_ONLY_READ} it would change${suggest(phrase(m[1]))}.`,
  },
  {
    name: 'insert or add rows',
    pattern:
      /^(?:insert|add\s+(?:a|an|one|new|\d+|some)\s+(?:new\s+)?(?:rows?|records?|entry|entries|lines?))\b(?:.*?\b(?:into|to|in)\s+(?:the\s+)?(?:table\s+)?(\S+))?/i,
    answer: (m) =>
      m[1]
        ? `${CAN_ONLY_READ} are already in ${nameOf(m[1])}${suggest(nameOf(m[1]))}.`
        : `${CAN_ONLY_READ} are already there — ask for them in words.`,
  },
];

/** Politeness and framing before the verb: "please", "can you", "I want to", "go ahead and". */
const LEAD_IN =
  /^(?:(?:please|kindly|now|then|ok(?:ay)?|so|just|go\s+ahead\s+and|(?:can|could|would|will)\s+you(?:\s+please)?|i\s+(?:want|need|would\s+like)\s+(?:you\s+)?to|i'd\s+like\s+(?:you\s+)?to|let's|let\s+us)[\s,]+)+/i;

/**
 * The answer to a request that asks to change data, or null when it does not. Fullwidth and other
 * compatibility characters are folded first ("ＤＲＯＰ" is DROP), so a lookalike is no way round.
 */
export function writeRequestAnswer(text: string): string | null {
  const plain = text
    .normalize('NFKC')
    .replace(/[\u200b-\u200f\u202a-\u202e\u2060-\u2069]/g, '')
    .trim()
    .replace(/^```\w*\s*/, '')
    .replace(LEAD_IN, '');
  for (const rule of RULES) {
    const m = rule.pattern.exec(plain);
    if (m) return rule.answer(m);
  }
  return null;
}
