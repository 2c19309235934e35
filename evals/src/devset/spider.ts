import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ordersResult } from './gold';
import { alignQuestions, type AlignedPair, type GoldLine } from './spider-align';
import { sqlShape } from './spider-gold';

/**
 * Spider's TRAINING split as development data, read from extracts of two public repositories
 * (never committed here): github.com/xi-ix/spider_evaluation (`train_gold.sql`: every training
 * item's gold SQL and database in Spider's order; `database/database/<db>/<db>.sqlite`) and
 * github.com/LeLuven/MachineSpider (`translations/*.json`, whose keys are the English training
 * questions in the same order). The two are aligned ({@link alignQuestions}); see evals/README.md.
 */

/**
 * Spider's dev split is reserved for independent measurement: its 20 databases are never read,
 * converted or paired here, whatever an extract contains, so nothing developed against this set
 * has seen a dev schema.
 */
export const SPIDER_DEV_DATABASES: ReadonlySet<string> = new Set([
  'concert_singer',
  'pets_1',
  'car_1',
  'flight_2',
  'employee_hire_evaluation',
  'cre_Doc_Template_Mgt',
  'course_teach',
  'museum_visit',
  'wta_1',
  'battle_death',
  'student_transcripts_tracking',
  'tvshow',
  'poker_player',
  'voter_1',
  'world_1',
  'orchestra',
  'network_1',
  'dog_kennels',
  'singer',
  'real_estate_properties',
]);

/** The databases of Spider's `train_others` part (older datasets); their questions are in their own file. */
export const SPIDER_TRAIN_OTHERS: ReadonlySet<string> = new Set([
  'geo',
  'scholar',
  'yelp',
  'academic',
  'imdb',
  'restaurants',
]);

export const SPIDER_HOWTO =
  'extract train_gold.sql (commit a6fcfcf) and database/database/<db>/<db>.sqlite of github.com/xi-ix/spider_evaluation ' +
  'into SPIDER_EVAL_DIR, and translations/ of github.com/LeLuven/MachineSpider into MACHINE_SPIDER_DIR; see evals/README.md';

export interface SpiderDirs {
  evalKit: string;
  machineSpider: string;
}

const GOLD_FILE = 'train_gold.sql';
const QUESTION_FILES = {
  spider: 'translations/train_translation.json',
  others: 'translations/train_other_translations.json',
} as const;

/** The two directories from `SPIDER_EVAL_DIR` and `MACHINE_SPIDER_DIR`, or why they cannot be used. */
export function spiderDirs(env: NodeJS.ProcessEnv): { dirs: SpiderDirs } | { missing: string } {
  const evalKit = env.SPIDER_EVAL_DIR;
  const machineSpider = env.MACHINE_SPIDER_DIR;
  if (!evalKit || !machineSpider)
    return { missing: `SPIDER_EVAL_DIR and MACHINE_SPIDER_DIR must both be set: ${SPIDER_HOWTO}` };
  const absent = [
    path.join(evalKit, GOLD_FILE),
    path.join(evalKit, 'database', 'database'),
    ...Object.values(QUESTION_FILES).map((f) => path.join(machineSpider, f)),
  ].filter((p) => !existsSync(p));
  if (absent.length) return { missing: `not found: ${absent.join(', ')}: ${SPIDER_HOWTO}` };
  return { dirs: { evalKit, machineSpider } };
}

export function spiderSqlitePath(evalKit: string, db: string): string {
  return path.join(evalKit, 'database', 'database', db, `${db}.sqlite`);
}

/** `SQL<TAB>db_id` lines; anything else (a stray marker line) is not a gold line. */
export function parseGoldLines(text: string): (GoldLine & { line: number })[] {
  return text.split('\n').flatMap((raw, k) => {
    const tab = raw.lastIndexOf('\t');
    if (tab < 0) return [];
    const sql = raw.slice(0, tab).trim();
    const db = raw.slice(tab + 1).trim();
    return sql && db ? [{ sql, db, line: k + 1 }] : [];
  });
}

/** Share of databases held out, in percent. */
export const SPIDER_HELD_OUT_PERCENT = 25;

/**
 * Whether a database is held out: sha1(`spider\n` + name), first 8 hex digits, mod 100, below
 * {@link SPIDER_HELD_OUT_PERCENT}. Whole databases, so the dev side and the held-out side share no
 * schema: what is tuned on one cannot have seen the other's tables and values.
 */
export function isHeldOutDatabase(db: string): boolean {
  const hex = createHash('sha1').update(`spider\n${db}`, 'utf8').digest('hex').slice(0, 8);
  return parseInt(hex, 16) % 100 < SPIDER_HELD_OUT_PERCENT;
}

export interface SpiderItem {
  /** `sp-<line of train_gold.sql>`, stable as long as that file is. */
  id: string;
  db: string;
  /** The gold's rough shape ({@link sqlShape}). */
  shape: string;
  question: string;
  /** The gold as Spider writes it (SQLite); translated for DuckDB when run. */
  sql: string;
  /** Spider's own rule: the order of rows counts when the gold's outermost query orders them. */
  ordered: boolean;
  heldOut: boolean;
}

export interface SpiderLoad {
  items: SpiderItem[];
  /** Questions, aligned pairs, confident pairs, per part. */
  alignment: { part: string; questions: number; aligned: number; kept: number }[];
  /** Confident pairs left out, per reason (a reserved database, no SQLite file). */
  excluded: Record<string, number>;
}

function questionsOf(dirs: SpiderDirs, file: string): string[] {
  return Object.keys(JSON.parse(readFileSync(path.join(dirs.machineSpider, file), 'utf8')) as Record<string, unknown>);
}

/** Every confidently aligned training question with its gold, database and split side. */
export function loadSpiderItems(dirs: SpiderDirs): SpiderLoad {
  const golds = parseGoldLines(readFileSync(path.join(dirs.evalKit, GOLD_FILE), 'utf8'));
  const parts = [
    { part: 'train_spider', golds: golds.filter((g) => !SPIDER_TRAIN_OTHERS.has(g.db)), file: QUESTION_FILES.spider },
    { part: 'train_others', golds: golds.filter((g) => SPIDER_TRAIN_OTHERS.has(g.db)), file: QUESTION_FILES.others },
  ];
  const items: SpiderItem[] = [];
  const alignment: SpiderLoad['alignment'] = [];
  const excluded: Record<string, number> = {};
  const exclude = (reason: string) => (excluded[reason] = (excluded[reason] ?? 0) + 1);
  for (const part of parts) {
    const run = alignQuestions(questionsOf(dirs, part.file), part.golds);
    alignment.push({ part: part.part, questions: run.questions, aligned: run.aligned, kept: run.pairs.length });
    for (const pair of run.pairs) {
      const line = part.golds[pair.line]?.line ?? 0;
      if (SPIDER_DEV_DATABASES.has(pair.gold.db)) exclude('reserved dev database');
      else if (!existsSync(spiderSqlitePath(dirs.evalKit, pair.gold.db))) exclude('no SQLite file');
      else items.push(itemOf(pair, line));
    }
  }
  return { items: items.sort((a, b) => a.id.localeCompare(b.id)), alignment, excluded };
}

function itemOf(pair: AlignedPair, line: number): SpiderItem {
  return {
    id: `sp-${String(line).padStart(4, '0')}`,
    db: pair.gold.db,
    shape: sqlShape(pair.gold.sql),
    question: pair.question.trim(),
    sql: pair.gold.sql,
    ordered: ordersResult(pair.gold.sql),
    heldOut: isHeldOutDatabase(pair.gold.db),
  };
}

const hashOf = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');

/**
 * At most `cap` items spread over the databases: each database's items in a stable pseudo-random
 * order (by the hash of the question), taken one per database per round, databases by name. The
 * same data gives the same sample; a small database is not crowded out by a large one.
 */
export function sampleAcrossDatabases<T extends { db: string; question: string }>(
  items: readonly T[],
  cap: number,
): T[] {
  const byDb = new Map<string, T[]>();
  for (const item of items) byDb.set(item.db, [...(byDb.get(item.db) ?? []), item]);
  const queues = [...byDb.entries()]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([, list]) => [...list].sort((a, b) => hashOf(a.question).localeCompare(hashOf(b.question))));
  const out: T[] = [];
  for (let round = 0; out.length < cap && queues.some((q) => q.length > round); round++)
    for (const queue of queues) {
      const item = queue[round];
      if (item && out.length < cap) out.push(item);
    }
  return out;
}
