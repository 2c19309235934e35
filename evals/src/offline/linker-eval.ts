import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ensureDemoDatabase } from '@nl2p/engine';
import type { LinkSchema } from '@nl2p/linking';
import type { LlmClient } from '@nl2p/llm';
import { DATASETS_DIR, loadSqlSet } from '../dataset';
import { ResultDb, compareResults, type ResultSet } from '../results';
import { buildDefogDatabase, defogDirs, loadDefogItems, type Gold } from '../devset/defog';
import { firstLine, type DumpLoad } from '../devset/pg-dump';
import { FIGURE_COLUMNS, figureCells, figuresOf, textTable, type Figures } from './figures';
import { duckDbLinkSchema } from './link-schema';
import { readOnce, readOnceChoosing, type ChoiceTaken, type Outcome, type Reading } from './read-once';
import { SPIDER_DB_PREFIX, spiderDatabase, spiderSets, withDuckDbGold } from './spider-set';

export const LINKER_SETS = [
  'duckdb-demo',
  'duckdb-heldout',
  'defog-dev',
  'defog-heldout',
  'spider-dev',
  'spider-heldout',
] as const;
export type LinkerSet = (typeof LINKER_SETS)[number];
/** Sets whose per-item results are written. The held-out sets report aggregate figures only. */
export const DEV_SETS: ReadonlySet<LinkerSet> = new Set<LinkerSet>(['duckdb-demo', 'defog-dev', 'spider-dev']);

/** One request of any set, over one database. */
export interface OfflineItem {
  id: string;
  db: string;
  category: string;
  request: string;
  expect: 'sql' | 'clarify';
  golds: Gold[];
}

export interface ItemResult {
  id: string;
  db: string;
  category: string;
  request: string;
  expect: 'sql' | 'clarify';
  gold: string[];
  outcome: Outcome;
  question: string | null;
  sql: string | null;
  /** Why the linker's answer was not taken (outcome `model`). */
  why: string | null;
  match: boolean | null;
  /** How the comparison went (or why the predicted SQL did not run). */
  detail: string | null;
  runError: boolean;
  confidence: string;
  table: string | null;
  unknown: string[];
  ambiguous: { phrase: string; candidates: string[] }[];
  doubts: string[];
  readings: string[];
  linkMs: number;
  /** The close calls put to the chooser (a run with the model as a chooser only). */
  choices: ChoiceTaken[];
}

export interface SetRun {
  set: LinkerSet;
  figures: Figures;
  /** Items left out because their gold SQL does not run here (or returns nothing), per reason. */
  dropped: Record<string, number>;
  /** The dropped items with DuckDB's error (written for the dev sets only). */
  droppedItems: { id: string; reason: string; error: string | null }[];
  results: ItemResult[];
}

interface Database {
  schema: LinkSchema;
  db: ResultDb;
  load: (DumpLoad & { tables: number }) | null;
}

/** A short, stable name for why a gold query failed: the missing function, or DuckDB's error kind. */
export function dropReason(error: string): string {
  if (error.startsWith('refused:')) return 'refused by the read-only check';
  const fn = /Function with name "?([\w.]+)"? does not exist/i.exec(error);
  if (fn) return `no function ${fn[1]?.toLowerCase()}`;
  const table = /Table with name "?([\w.]+)"? does not exist/i.exec(error);
  if (table) return `no table ${table[1]}`;
  const type = /Type with name "?([\w.]+)"? does not exist/i.exec(error);
  if (type) return `no type ${type[1]?.toLowerCase()}`;
  const kind = /^([A-Za-z ]+ Error):/.exec(error);
  return kind?.[1] ?? error.slice(0, 60);
}

/** The gold answers that run and return rows, or why the item is dropped. */
async function runGolds(
  golds: readonly Gold[],
  db: ResultDb,
): Promise<{ ok: { result: ResultSet; ordered: boolean }[] } | { drop: string; error: string | null }> {
  const ok: { result: ResultSet; ordered: boolean }[] = [];
  let empty = false;
  let error: string | null = null;
  for (const gold of golds) {
    try {
      const result = await db.run(gold.sql);
      if (result.rows.length === 0) empty = true;
      else ok.push({ result, ordered: gold.ordered });
    } catch (err) {
      error ??= firstLine(err);
    }
  }
  if (ok.length) return { ok };
  // An empty gold is matched by any empty answer: it measures nothing.
  if (empty) return { drop: 'gold returns no rows', error };
  return { drop: `gold fails: ${dropReason(error ?? 'no gold query')}`, error };
}

export const LINKER_THREW = 'the linker threw: ';

/**
 * {@link readOnce}, with an exception from the linker counted as the item not answered (outcome
 * `model`, the error as `why`) rather than ending the whole run; the summary counts them, since in
 * the product the `link` node would fail the turn.
 */
async function safeReadOnce(request: string, schema: LinkSchema, chooser: Chooser | null): Promise<Reading> {
  try {
    if (!chooser || chooser.calls >= chooser.cap) return readOnce(request, schema);
    const reading = await readOnceChoosing(request, schema, chooser.llm);
    chooser.calls += reading.choices.length;
    return reading;
  } catch (err) {
    return {
      outcome: 'model',
      why: `${LINKER_THREW}${firstLine(err)}`,
      question: null,
      sql: null,
      linkMs: 0,
      proposal: { confidence: 'none', table: null, unknown: [], ambiguous: [], doubts: [], readings: [] },
      choices: [],
    };
  }
}

/** The model as a chooser for a run (MODEL_CHOOSES), and how many of its calls the run may make. */
export interface Chooser {
  llm: LlmClient;
  /** Calls allowed in the whole run; past it, requests are read without a chooser (and the summary says so). */
  cap: number;
  calls: number;
}

async function scoreItem(
  item: OfflineItem,
  database: Database,
  chooser: Chooser | null,
): Promise<ItemResult | { drop: string; error: string | null }> {
  let golds: { result: ResultSet; ordered: boolean }[] = [];
  if (item.expect === 'sql') {
    const run = await runGolds(item.golds, database.db);
    if ('drop' in run) return run;
    golds = run.ok;
  }
  const reading = await safeReadOnce(item.request, database.schema, chooser);
  const p = reading.proposal;
  const result: ItemResult = {
    id: item.id,
    db: item.db,
    category: item.category,
    request: item.request,
    expect: item.expect,
    gold: item.golds.map((g) => g.sql),
    outcome: reading.outcome,
    question: reading.question,
    sql: reading.sql,
    why: reading.why,
    match: null,
    detail: null,
    runError: false,
    confidence: p.confidence,
    table: p.table,
    unknown: p.unknown,
    ambiguous: p.ambiguous,
    doubts: p.doubts,
    readings: p.readings,
    linkMs: reading.linkMs,
    choices: reading.choices,
  };
  if (reading.outcome !== 'sql' || !reading.sql || item.expect !== 'sql') return result;
  let predicted: ResultSet;
  try {
    predicted = await database.db.run(reading.sql);
  } catch (err) {
    // Validated means it ran: the product would take a runtime error to the model's repair.
    return { ...result, outcome: 'model', runError: true, why: `the compiled SQL failed: ${firstLine(err)}` };
  }
  const matches = golds.map((g) => compareResults(g.result, predicted, g.ordered));
  const hit = matches.find((m) => m.match);
  return { ...result, match: Boolean(hit), detail: (hit ?? matches[0])?.detail ?? null };
}

export interface LinkerEvalOptions {
  sets: readonly LinkerSet[];
  env: NodeJS.ProcessEnv;
  /** Where per-item reports and the summary go (reports/). */
  outDir: string;
  /** Where the DuckDB files are built (tmp/linker-eval). */
  workDir: string;
  /** Where converted Spider databases are kept between runs (tmp/spider-duckdb). */
  spiderCacheDir: string;
  log: (line: string) => void;
  /** The model as a chooser among close candidates; null or absent: the no-model path alone. */
  chooser?: Chooser | null;
}

export interface LinkerEvalRun {
  runs: SetRun[];
  summary: string;
  skipped: string | null;
}

/** Items of the demo sets (evals/datasets) as offline items over the demo database. */
function demoItems(file: string): OfflineItem[] {
  return loadSqlSet(path.join(DATASETS_DIR, file)).items.map((i) => ({
    id: i.id,
    db: 'demo',
    category: i.category,
    request: i.request,
    expect: i.expect,
    golds: i.gold_sql ? [{ sql: i.gold_sql, ordered: i.ordered }] : [],
  }));
}

/**
 * The offline linker eval: every item of the chosen sets through {@link readOnce} on the
 * database's production LinkSchema, the accepted SQL run read-only and compared with the gold.
 * Writes per-item reports for the dev sets only and returns the printed summary.
 */
export async function runLinkerEval(o: LinkerEvalOptions): Promise<LinkerEvalRun> {
  const started = performance.now();
  const items = new Map<LinkerSet, OfflineItem[]>();
  const notes: string[] = [];
  let skipped: string | null = null;
  if (o.sets.includes('duckdb-demo')) items.set('duckdb-demo', demoItems('duckdb-demo.json'));
  if (o.sets.includes('duckdb-heldout')) items.set('duckdb-heldout', demoItems('duckdb-heldout.json'));
  const wantsDefog = o.sets.some((s) => s.startsWith('defog-'));
  if (wantsDefog) {
    const found = defogDirs(o.env);
    if ('missing' in found) {
      skipped = `defog sets skipped: ${found.missing}`;
      o.log(skipped);
    } else {
      const all = loadDefogItems(found.dirs.sqlEval).map((d) => ({
        heldOut: d.heldOut,
        item: {
          id: d.id,
          db: d.db,
          category: d.category,
          request: d.question,
          expect: d.expect,
          golds: d.golds,
        } satisfies OfflineItem,
      }));
      if (o.sets.includes('defog-dev'))
        items.set(
          'defog-dev',
          all.filter((a) => !a.heldOut).map((a) => a.item),
        );
      if (o.sets.includes('defog-heldout'))
        items.set(
          'defog-heldout',
          all.filter((a) => a.heldOut).map((a) => a.item),
        );
    }
  }

  if (o.sets.some((s) => s.startsWith('spider-'))) {
    const spider = spiderSets(o.env);
    if ('missing' in spider) {
      const line = `spider sets skipped: ${spider.missing}`;
      skipped = skipped ? `${skipped}\n${line}` : line;
      o.log(line);
    } else {
      if (o.sets.includes('spider-dev')) items.set('spider-dev', spider.dev);
      if (o.sets.includes('spider-heldout')) items.set('spider-heldout', spider.heldOut);
      notes.push(spider.note);
      o.log(spider.note);
    }
  }

  // One DuckDB file per database, built afresh (Spider's: converted once and cached), read through the DuckDB target.
  const databases = new Map<string, Database>();
  const dbNames = [...new Set([...items.values()].flat().map((i) => i.db))].sort();
  const buildStarted = performance.now();
  rmSync(o.workDir, { recursive: true, force: true });
  mkdirSync(o.workDir, { recursive: true });
  for (const name of dbNames) {
    let file: string;
    let load: Database['load'] = null;
    if (name === 'demo') {
      file = path.join(o.workDir, 'demo.duckdb');
      await ensureDemoDatabase(file);
    } else if (name.startsWith(SPIDER_DB_PREFIX)) {
      file = (await spiderDatabase(o.env, name, o.spiderCacheDir)).path;
    } else {
      const found = defogDirs(o.env);
      if ('missing' in found) throw new Error(found.missing);
      const built = await buildDefogDatabase(found.dirs.data, name, o.workDir);
      file = built.path;
      load = { ...built, tables: 0 };
    }
    const schema = await duckDbLinkSchema(file);
    if (load) load.tables = Object.keys(schema.tables).length;
    databases.set(name, { schema, db: new ResultDb(file), load });
  }
  const buildMs = performance.now() - buildStarted;
  // Spider's gold is SQLite's: translated once the database's names are known.
  for (const set of ['spider-dev', 'spider-heldout'] as const) {
    const list = items.get(set);
    if (list) items.set(set, await withDuckDbGold(list, (db) => (databases.get(db) as Database).schema));
  }

  const runs: SetRun[] = [];
  try {
    for (const set of o.sets) {
      const list = items.get(set);
      if (!list) continue;
      const results: ItemResult[] = [];
      const dropped: Record<string, number> = {};
      const droppedItems: SetRun['droppedItems'] = [];
      for (const item of list) {
        const database = databases.get(item.db);
        if (!database) throw new Error(`no database ${item.db}`);
        const scored = await scoreItem(item, database, o.chooser ?? null);
        if ('drop' in scored) {
          dropped[scored.drop] = (dropped[scored.drop] ?? 0) + 1;
          droppedItems.push({ id: item.id, reason: scored.drop, error: scored.error });
        } else results.push(scored);
      }
      runs.push({ set, figures: figuresOf(results), dropped, droppedItems, results });
    }
  } finally {
    for (const d of databases.values()) await d.db.close();
  }

  mkdirSync(o.outDir, { recursive: true });
  for (const run of runs) {
    if (!DEV_SETS.has(run.set)) continue;
    const base = path.join(o.outDir, `linker-eval-${run.set}${o.chooser ? '-chooser' : ''}`);
    writeFileSync(`${base}.json`, `${JSON.stringify(run, null, 2)}\n`);
    writeFileSync(`${base}.txt`, itemsText(run));
    o.log(`wrote ${base}.json and .txt`);
  }
  const totalMs = performance.now() - started;
  const chooserNotes = o.chooser ? chooserText(runs, o.chooser) : [];
  const allNotes = [...notes, ...(skipped ? [skipped] : []), ...chooserNotes];
  const summary = summaryText(runs, databases, allNotes, { totalMs, buildMs });
  const summaryName = `linker-eval-summary${o.chooser ? '-chooser' : ''}`;
  writeFileSync(path.join(o.outDir, `${summaryName}.txt`), summary);
  writeFileSync(
    path.join(o.outDir, `${summaryName}.json`),
    `${JSON.stringify(
      runs.map((r) => ({ set: r.set, figures: r.figures, dropped: r.dropped, chooser: chooserFigures(r.results) })),
      null,
      2,
    )}\n`,
  );
  return { runs, summary, skipped };
}

/** How the items that reached a choice ended with the chooser (no chooser: every one of them is asked). */
export interface ChooserFigures {
  reached: number;
  execMatch: number;
  acceptedWrong: number;
  asked: number;
  toModel: number;
  /** Close calls put to the model, and how many it picked a candidate for (the rest it left to the person). */
  calls: number;
  picked: number;
  /** Mean time of one chooser call, in ms. */
  msPerCall: number;
}

export function chooserFigures(results: readonly ItemResult[]): ChooserFigures {
  const reached = results.filter((r) => r.choices.length > 0);
  const calls = reached.flatMap((r) => r.choices);
  const accepted = reached.filter((r) => r.outcome === 'sql');
  return {
    reached: reached.length,
    execMatch: accepted.filter((r) => r.match).length,
    acceptedWrong: accepted.filter((r) => !r.match).length,
    asked: reached.filter((r) => r.outcome === 'clarification').length,
    toModel: reached.filter((r) => r.outcome === 'model').length,
    calls: calls.length,
    picked: calls.filter((c) => c.chosen !== null).length,
    msPerCall: calls.length ? calls.reduce((a, c) => a + c.ms, 0) / calls.length : 0,
  };
}

/** The chooser's own figures, per set, on the items that reached a choice. */
function chooserText(runs: readonly SetRun[], chooser: Chooser): string[] {
  const rows = runs.map((r) => {
    const f = chooserFigures(r.results);
    const cells = [f.reached, f.execMatch, f.acceptedWrong, f.asked, f.toModel, `${f.picked}/${f.calls}`];
    return [r.set, ...cells.map(String), f.msPerCall.toFixed(0)];
  });
  const capped = chooser.calls >= chooser.cap ? [`the chooser stopped at its cap of ${chooser.cap} calls`] : [];
  return [
    'the model as a chooser, on the items that reached a choice (without it, every one of them is asked):',
    textTable(['set', 'reached', 'exec match', 'accepted wrong', 'asked', 'to model', 'picked/calls', 'ms/call'], rows),
    ...capped,
  ];
}

/** Figures of `results` split by `key`, as table rows (for the dev set only). */
function breakdown(results: readonly ItemResult[], key: (r: ItemResult) => string): string[][] {
  const groups = new Map<string, ItemResult[]>();
  for (const r of results) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  return [...groups.entries()]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([name, rs]) => [name, ...figureCells(figuresOf(rs))]);
}

function summaryText(
  runs: readonly SetRun[],
  databases: ReadonlyMap<string, Database>,
  notes: readonly string[],
  time: { totalMs: number; buildMs: number },
): string {
  const out: string[] = [];
  out.push('Offline linker eval: the embedded default with no model (link → propose → clarify → check → compile)');
  out.push('');
  out.push(
    textTable(
      ['set', ...FIGURE_COLUMNS],
      runs.map((r) => [r.set, ...figureCells(r.figures)]),
    ),
  );
  if (notes.length) out.push('', ...notes);
  for (const r of runs) {
    const threw = r.results.filter((x) => x.why?.startsWith(LINKER_THREW));
    if (!threw.length) continue;
    const kinds = [...new Set(threw.map((x) => x.why?.slice(LINKER_THREW.length)))].slice(0, 3);
    out.push('', `${r.set}: the linker threw on ${threw.length} items (counted as to model): ${kinds.join(' | ')}`);
  }
  const drops = runs.filter((r) => Object.keys(r.dropped).length);
  if (drops.length) {
    out.push('', 'dropped items (gold does not run on DuckDB, or returns no rows):');
    for (const r of drops) {
      const reasons = Object.entries(r.dropped).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
      out.push(`  ${r.set}: ${reasons.map(([k, n]) => `${k} ${n}`).join(', ')}`);
    }
  }
  const dev = runs.find((r) => r.set === 'defog-dev');
  if (dev) {
    out.push('', 'defog-dev by query_category:');
    out.push(
      textTable(
        ['category', ...FIGURE_COLUMNS],
        breakdown(dev.results, (r) => r.category),
      ),
    );
    out.push('', 'defog-dev by database:');
    out.push(
      textTable(
        ['db', ...FIGURE_COLUMNS],
        breakdown(dev.results, (r) => r.db),
      ),
    );
  }
  const spider = runs.find((r) => r.set === 'spider-dev');
  if (spider) {
    out.push('', "spider-dev by the gold's shape (its most telling construct):");
    out.push(
      textTable(
        ['shape', ...FIGURE_COLUMNS],
        breakdown(spider.results, (r) => r.category),
      ),
    );
  }
  const loads = [...databases.entries()].filter(([, d]) => d.load);
  if (loads.length) {
    out.push('', 'databases (PostgreSQL dumps run on DuckDB):');
    out.push(
      textTable(
        ['db', 'tables', 'statements', 'adapted', 'skipped'],
        loads.map(([name, d]) => {
          const l = d.load as NonNullable<Database['load']>;
          const adapted = Object.entries(l.adapted)
            .map(([k, n]) => `${k} ${n}`)
            .join(', ');
          return [name, String(l.tables), String(l.statements), adapted || '-', String(l.skipped.length)];
        }),
      ),
    );
    for (const [name, d] of loads)
      for (const s of d.load?.skipped ?? [])
        out.push(`  skipped in ${name}: ${s.error} (${s.statement.slice(0, 80)}…)`);
  }
  out.push(
    '',
    `time: ${(time.totalMs / 1000).toFixed(1)} s in all, of which ${(time.buildMs / 1000).toFixed(1)} s building the databases and reading their catalogs`,
  );
  out.push(
    'columns: exec match = accepted SQL whose rows match a gold; accepted wrong = accepted SQL that does not; asked = a clarification question;',
  );
  out.push(
    '         to model = inconclusive, the product would ask the LLM (run err: the compiled SQL failed to run); percentages of answerable / of clarify expected',
  );
  return `${out.join('\n')}\n`;
}

/** The per-item report of a dev set, for reading. */
function itemsText(run: SetRun): string {
  const out: string[] = [`${run.set}: ${run.results.length} items`, ''];
  if (run.droppedItems.length) {
    out.push(`dropped (${run.droppedItems.length}):`);
    for (const d of run.droppedItems) out.push(`  ${d.id}: ${d.reason}${d.error ? ` (${d.error})` : ''}`);
    out.push('');
  }
  for (const r of run.results) {
    const verdict =
      r.expect === 'clarify'
        ? r.outcome === 'clarification'
          ? 'OK (asked)'
          : `MISS (clarify expected, got ${r.outcome})`
        : r.outcome === 'sql'
          ? r.match
            ? 'OK'
            : 'WRONG'
          : r.outcome === 'clarification'
            ? 'ASKED'
            : 'MODEL';
    out.push(`## ${r.id} [${r.db} / ${r.category}] ${verdict}`);
    out.push(`request:   ${r.request}`);
    if (r.gold.length) out.push(`gold:      ${r.gold.join('\n           ')}`);
    out.push(`outcome:   ${r.outcome} (confidence ${r.confidence}, table ${r.table ?? '-'})`);
    if (r.sql) out.push(`predicted: ${r.sql}`);
    if (r.question) out.push(`question:  ${r.question}`);
    if (r.why) out.push(`why:       ${r.why}`);
    if (r.detail) out.push(`compare:   ${r.detail}`);
    if (r.unknown.length) out.push(`unknown:   ${JSON.stringify(r.unknown)}`);
    if (r.ambiguous.length) out.push(`ambiguous: ${JSON.stringify(r.ambiguous)}`);
    if (r.doubts.length) out.push(`doubts:    ${r.doubts.join(' | ')}`);
    if (r.readings.length) out.push(`readings:  ${r.readings.join(' | ')}`);
    for (const c of r.choices)
      out.push(
        `chooser:   ${c.slot} '${c.word}' among ${c.candidates.join(', ')} → ${c.chosen ?? 'left to the person'}`,
      );
    out.push(`link ms:   ${r.linkMs.toFixed(2)}`, '');
  }
  return `${out.join('\n')}\n`;
}
