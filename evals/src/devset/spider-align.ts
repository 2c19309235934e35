/**
 * Pairs Spider training questions with their gold SQL when the two come from different files that
 * are not one to one: MachineSpider's question list (deduplicated, some items dropped) against
 * the evaluation kit's gold lines (`SQL<TAB>db_id`, every item). Both keep Spider's order, so the
 * pairing is a monotone alignment with skips, scored by the evidence that a question and a query
 * belong together; only pairs whose evidence clearly beats their neighbours' queries are kept.
 */

/** One gold line: the query and its database. */
export interface GoldLine {
  sql: string;
  db: string;
}

/** What a query offers as evidence: its identifiers' word parts, its literals and its numbers. */
export interface SqlEvidence {
  parts: Set<string>;
  literals: string[];
  numbers: Set<string>;
  counts: boolean;
  orders: boolean;
}

/** What a question offers: its words (stemmed), its numbers and its quoted values. */
export interface QuestionEvidence {
  text: string;
  stems: string[];
  numbers: Set<string>;
  quoted: string[];
}

const SQL_WORDS = new Set(
  (
    'select from where and or not in like between is null as on join inner left outer group by order ' +
    'having limit asc desc distinct count sum avg min max union intersect except exists all any case ' +
    'when then else end cast'
  ).split(' '),
);

/** Number words a question uses where the query has digits. */
const NUMBER_WORDS: Record<string, string> = {
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  twice: '2',
};

/** A rough stem: enough for "heads"/"head", "employees"/"employee", "cities"/"city". */
export function stem(word: string): string {
  const w = word.toLowerCase();
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && /(ses|xes|ches|shes)$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

/** Whether a question word and an identifier part name the same thing, roughly (shared prefix). */
export function wordsMeet(a: string, b: string): boolean {
  if (a === b) return true;
  const shorter = Math.min(a.length, b.length);
  if (shorter < 4) return false;
  let common = 0;
  while (common < shorter && a[common] === b[common]) common++;
  return common >= 4 && common >= Math.ceil(0.75 * shorter);
}

/** Identifier parts: split at underscores and camel case, lower case, SQL words and aliases left out. */
function identifierParts(sqlWithoutLiterals: string): Set<string> {
  const parts = new Set<string>();
  for (const ident of sqlWithoutLiterals.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) {
    if (SQL_WORDS.has(ident.toLowerCase()) || /^t\d+$/i.test(ident)) continue;
    for (const piece of ident.replace(/([a-z])([A-Z])/g, '$1_$2').split(/_+/)) {
      const p = piece.toLowerCase();
      if (p.length >= 2 && !/^\d+$/.test(p)) parts.add(stem(p));
    }
  }
  return parts;
}

export function sqlEvidence(sql: string): SqlEvidence {
  const literals: string[] = [];
  const bare = sql.replace(/"([^"]*)"|'([^']*)'/g, (_m, d?: string, s?: string) => {
    literals.push((d ?? s ?? '').replace(/%/g, '').trim().toLowerCase());
    return ' ';
  });
  const numbers = new Set(bare.match(/\b\d+(?:\.\d+)?\b/g) ?? []);
  return {
    parts: identifierParts(bare.replace(/\b\d+(?:\.\d+)?\b/g, ' ')),
    literals: literals.filter((l) => l !== ''),
    numbers,
    counts: /\bcount\s*\(/i.test(bare),
    orders: /\border\s+by\b/i.test(bare),
  };
}

export function questionEvidence(question: string): QuestionEvidence {
  const text = question.toLowerCase();
  const quoted = [...question.matchAll(/["'‘“]([^"'’”]+)["'’”]/g)].map((m) => (m[1] ?? '').trim().toLowerCase());
  const numbers = new Set(text.match(/\b\d+(?:\.\d+)?\b/g) ?? []);
  const words = text.match(/[a-z]+/g) ?? [];
  for (const w of words) if (NUMBER_WORDS[w]) numbers.add(NUMBER_WORDS[w]);
  return { text, stems: [...new Set(words.filter((w) => w.length >= 2).map(stem))], numbers, quoted };
}

/**
 * How strongly a question and a query belong together: identifier parts the question's words meet
 * (for), parts it never mentions (slightly against: questions paraphrase), numbers and literals
 * found on both sides (strongly for) or on one side only (against), and the count/order cues.
 */
export function pairScore(q: QuestionEvidence, s: SqlEvidence): number {
  let score = 0;
  for (const part of s.parts) {
    if (q.stems.some((w) => wordsMeet(w, part))) score += 1;
    else if (part.length >= 3) score -= 0.25;
  }
  for (const n of q.numbers) score += s.numbers.has(n) ? 2 : -1.5;
  // LIMIT 1 and "= 1" flags come from superlatives and yes/no words, not from written numbers.
  for (const n of s.numbers) if (!q.numbers.has(n) && n !== '1' && n !== '0') score -= 1;
  for (const lit of s.literals) score += q.text.includes(lit) ? 3 : -1;
  for (const v of q.quoted) if (!s.literals.some((l) => l.includes(v) || v.includes(l))) score -= 1;
  const asksCount = /\b(how many|number of|count)\b/.test(q.text);
  if (asksCount !== s.counts) score -= 0.5;
  return score;
}

export interface AlignOptions {
  /** Cost of leaving a gold line without a question (the question list dropped or merged it). */
  goldSkip: number;
  /** Cost of leaving a question without a gold line (should be rare: every question has one). */
  questionSkip: number;
  /** How far (in lines) the alignment may run ahead of or behind the diagonal band. */
  slack: number;
}

export const ALIGN_DEFAULTS: AlignOptions = { goldSkip: 0.5, questionSkip: 4, slack: 60 };

const MATCH = 1;
const SKIP_GOLD = 2;
const SKIP_QUESTION = 3;

/**
 * The best monotone alignment of `n` questions to `m` gold lines (dynamic programming, banded
 * around the diagonal since both lists keep one order): each question gets at most one gold line,
 * in increasing order. Returns, per question, the gold index or -1.
 */
export function alignSequences(
  n: number,
  m: number,
  score: (i: number, j: number) => number,
  o: AlignOptions = ALIGN_DEFAULTS,
): number[] {
  const lo = -o.slack;
  const hi = Math.max(0, m - n) + o.slack;
  const width = hi - lo + 1;
  const back = new Uint8Array((n + 1) * width);
  let prev = new Float64Array(m + 1).fill(-Infinity);
  prev[0] = 0;
  for (let j = 1; j <= m && j <= hi; j++) prev[j] = prev[j - 1] - o.goldSkip;
  for (let j = 1; j <= Math.min(m, hi); j++) back[j - lo] = SKIP_GOLD;
  for (let i = 1; i <= n; i++) {
    const row = new Float64Array(m + 1).fill(-Infinity);
    const from = Math.max(0, i + lo);
    const to = Math.min(m, i + hi);
    for (let j = from; j <= to; j++) {
      let best = prev[j] - o.questionSkip;
      let move = SKIP_QUESTION;
      if (j > 0 && row[j - 1] - o.goldSkip > best) {
        best = row[j - 1] - o.goldSkip;
        move = SKIP_GOLD;
      }
      if (j > 0 && prev[j - 1] > -Infinity) {
        const matched = prev[j - 1] + score(i - 1, j - 1);
        if (matched > best) {
          best = matched;
          move = MATCH;
        }
      }
      row[j] = best;
      back[i * width + (j - i - lo)] = move;
    }
    prev = row;
  }
  return traceBack(n, m, back, lo, width);
}

function traceBack(n: number, m: number, back: Uint8Array, lo: number, width: number): number[] {
  const out = new Array<number>(n).fill(-1);
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const move = i === 0 ? SKIP_GOLD : back[i * width + (j - i - lo)];
    if (move === MATCH) out[--i] = --j;
    else if (move === SKIP_GOLD) j--;
    else if (move === SKIP_QUESTION) i--;
    else throw new Error(`alignment left its band at question ${i}, gold ${j}`);
  }
  return out;
}

export interface AlignedPair {
  question: string;
  gold: GoldLine;
  /** The gold line's index in its file (0-based). */
  line: number;
  score: number;
  /** The score minus the best score of another query within the window around the line. */
  margin: number;
}

export interface ConfidenceRule {
  minScore: number;
  minMargin: number;
  /** Gold lines on either side that compete with the aligned one. */
  window: number;
}

export const CONFIDENCE_DEFAULTS: ConfidenceRule = { minScore: 2, minMargin: 1, window: 4 };

/**
 * Questions paired with gold lines, keeping only confident pairs: the pair's score is at least
 * `minScore`, and no other query (different text) within `window` lines scores within
 * `minMargin` of it. Identical neighbours (Spider's paraphrase pairs share one query) do not compete.
 */
export function alignQuestions(
  questions: readonly string[],
  golds: readonly GoldLine[],
  rule: ConfidenceRule = CONFIDENCE_DEFAULTS,
  options: AlignOptions = ALIGN_DEFAULTS,
): { pairs: AlignedPair[]; aligned: number; questions: number } {
  const qe = questions.map(questionEvidence);
  const se = golds.map((g) => sqlEvidence(g.sql));
  const score = (i: number, j: number) => pairScore(qe[i], se[j]);
  const path = alignSequences(questions.length, golds.length, score, options);
  const pairs: AlignedPair[] = [];
  let aligned = 0;
  path.forEach((j, i) => {
    if (j < 0) return;
    aligned++;
    const own = score(i, j);
    let rival = -Infinity;
    for (let k = Math.max(0, j - rule.window); k <= Math.min(golds.length - 1, j + rule.window); k++)
      if (golds[k]?.sql !== golds[j]?.sql) rival = Math.max(rival, score(i, k));
    const margin = own - rival;
    if (own >= rule.minScore && margin >= rule.minMargin)
      pairs.push({ question: questions[i], gold: golds[j], line: j, score: own, margin });
  });
  return { pairs, aligned, questions: questions.length };
}
