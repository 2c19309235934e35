import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as gpt4o from 'gpt-tokenizer/cjs/model/gpt-4o';
import * as gpt4 from 'gpt-tokenizer/cjs/model/gpt-4';
import type { Column } from '@nl2p/envelope';
import { newSessionEnvelope, type Envelope } from '@nl2p/envelope';
import {
  VELOFLUX_DIALECT_NOTES,
  toFunctionInfos,
  toSyntaxRules,
  type Catalog,
  type FunctionDef,
  type SyntaxConstruct,
} from '@nl2p/engine';
import { remember } from '@nl2p/graph';
import type { LlmMessage } from '@nl2p/llm';
import { describeCatalog, describeSchema, draftMessages, reviseMessages } from '@nl2p/prompts';
import { DEFAULT_EXAMPLES_DIR } from '@nl2p/testing';

/** Token counts of one text or one chat, with both OpenAI encodings. */
export interface TokenCount {
  chars: number;
  /** o200k_base (GPT-4o, GPT-4.1, o-series); chats counted with the chat framing. */
  o200k: number;
  /** cl100k_base (GPT-4, GPT-3.5). */
  cl100k: number;
}

export interface PromptCostRow {
  what: string;
  tokens: TokenCount;
}

export interface PromptCost {
  functions: number;
  syntax_rules: number;
  stream_columns: number;
  /** The prompts the product sends. */
  prompts: PromptCostRow[];
  /** What sending the engine's own catalogs verbatim would cost. */
  verbatim: PromptCostRow[];
  /** Verbatim draft prompt / product draft prompt, o200k. */
  verbatim_over_digest: number;
}

function countText(text: string): TokenCount {
  return { chars: text.length, o200k: gpt4o.countTokens(text), cl100k: gpt4.countTokens(text) };
}

function countChat(messages: LlmMessage[]): TokenCount {
  const chat = messages.map((m) => ({ role: m.role, content: m.content }));
  return {
    chars: messages.reduce((n, m) => n + m.content.length, 0),
    o200k: gpt4o.encodeChat(chat).length,
    cl100k: gpt4.encodeChat(chat).length,
  };
}

/** A realistic wide stream: 40 top-level columns, one struct and two lists among them. */
export function wideStreamColumns(): Column[] {
  const scalar = (name: string, data_type: string): Column => ({ name, data_type });
  const cols: Column[] = [
    scalar('device_id', 'string'),
    scalar('site', 'string'),
    scalar('line', 'string'),
    scalar('machine_id', 'string'),
    scalar('firmware', 'string'),
    scalar('ts', 'int64'),
    scalar('seq', 'int64'),
    scalar('temperature', 'float64'),
    scalar('humidity', 'float64'),
    scalar('pressure', 'float64'),
    scalar('vibration_x', 'float64'),
    scalar('vibration_y', 'float64'),
    scalar('vibration_z', 'float64'),
    scalar('rpm', 'int64'),
    scalar('torque', 'float64'),
    scalar('power_kw', 'float64'),
    scalar('voltage', 'float64'),
    scalar('current_a', 'float64'),
    scalar('battery', 'int64'),
    scalar('signal_dbm', 'int64'),
    scalar('status', 'string'),
    scalar('error_code', 'int64'),
    scalar('is_running', 'bool'),
    scalar('is_maintenance', 'bool'),
    scalar('operator', 'string'),
    scalar('shift', 'string'),
    scalar('product_code', 'string'),
    scalar('batch_id', 'string'),
    scalar('units_produced', 'int64'),
    scalar('units_rejected', 'int64'),
    scalar('cycle_time_ms', 'int64'),
    scalar('flow_rate', 'float64'),
    scalar('level_pct', 'float64'),
    scalar('co2_ppm', 'float64'),
    scalar('noise_db', 'float64'),
    scalar('ambient_temp', 'float64'),
    {
      name: 'location',
      data_type: 'struct',
      fields: [scalar('lat', 'float64'), scalar('lon', 'float64'), scalar('alt', 'float64')],
    },
    { name: 'tags', data_type: 'list', element: scalar('element', 'string') },
    { name: 'readings', data_type: 'list', element: scalar('element', 'float64') },
    scalar('note', 'string'),
  ];
  if (cols.length !== 40) throw new Error(`the wide stream must have 40 columns, has ${cols.length}`);
  return cols;
}

/** The catalog exactly as the veloFlux adapter builds it from the Manager's responses. */
export function velofluxCatalog(examplesDir: string): { catalog: Catalog; functionsText: string; syntaxText: string } {
  const functionsText = readFileSync(path.join(examplesDir, 'functions_list.json'), 'utf8');
  const syntaxText = readFileSync(path.join(examplesDir, 'syntax_capabilities.json'), 'utf8');
  const functions = JSON.parse(functionsText) as FunctionDef[];
  const syntax = JSON.parse(syntaxText) as { constructs: SyntaxConstruct[] };
  return {
    catalog: {
      dialect: 'veloflux',
      functions: toFunctionInfos(functions),
      syntax: toSyntaxRules(syntax.constructs),
      dialectNotes: [...VELOFLUX_DIALECT_NOTES],
    },
    functionsText,
    syntaxText,
  };
}

const REQUEST =
  'average vibration and max temperature per machine every 30 seconds, only while running, and count the rejected units';

function draftEnvelope(columns: Column[]): Envelope {
  let e = newSessionEnvelope({
    sessionId: 'bench',
    target: 'veloflux',
    maxAttempts: 3,
    sink: { type: 'mqtt', props: {} },
  });
  // A second request in a session: the first exchange is in the history, as it would be.
  e = remember(e, 'user', 'which streams are there?');
  e = remember(e, 'assistant', 'Streams: plant_telemetry (40 columns), sensor_stream (4 columns)');
  e = remember(e, 'user', REQUEST);
  return {
    ...e,
    request: REQUEST,
    streams: ['plant_telemetry', 'sensor_stream', 'vehicle'],
    active_stream: 'plant_telemetry',
    stream_schema: { name: 'plant_telemetry', columns },
  };
}

export function promptCost(examplesDir = DEFAULT_EXAMPLES_DIR): PromptCost {
  const { catalog, functionsText, syntaxText } = velofluxCatalog(examplesDir);
  const columns = wideStreamColumns();
  const draftE = draftEnvelope(columns);
  const draft = draftMessages(draftE, catalog);

  // The first repair: the draft used a function the engine does not have; its error lists every
  // function (the engine's own wording), which the prompt cuts.
  const names = catalog.functions.filter((f) => f.kind !== 'window').map((f) => f.name);
  const badSql =
    "SELECT machine_id, avg(vibration_x) AS avg_vib, max(temperature) AS max_temp, sum(units_rejected) AS rejected FROM plant_telemetry WHERE is_running = true AND median(rpm) > 0 GROUP BY machine_id, tumblingwindow('ss', 30)";
  const engineError = `failed to create pipeline __nl2pipeline_tmp__bench_1_1: pipeline build error: Failed to compile expression: Unsupported expression: Unknown function: 'median'. Available custom functions: ${JSON.stringify(names)}`;
  const reviseE: Envelope = {
    ...draftE,
    draft: { preview_text: badSql, sql: badSql, questions: [], assumptions: [], mode: 'sql', plan: null },
    validation: {
      ...draftE.validation,
      attempt: 1,
      error: engineError,
      error_stage: 'engine',
      failures: [{ attempt: 1, sql: badSql, stage: 'engine', error: engineError }],
    },
  };
  const revise = reviseMessages(reviseE, catalog);

  // Verbatim: the same instructions, with the Manager's JSON in place of the digest and schema.
  const digest = describeCatalog(catalog);
  const schema = describeSchema({ name: 'plant_telemetry', columns });
  const describeJson = JSON.stringify(
    {
      stream: 'plant_telemetry',
      spec_version: 1,
      spec: { type: 'mqtt', schema: { columns }, props: {}, shared: false, decoder: { type: 'json', props: {} } },
    },
    null,
    2,
  );
  const verbatimDraft = draft.map((m) => ({
    ...m,
    content: m.content
      .replace(
        digest,
        `Functions (GET /functions):\n${functionsText}\nSyntax (GET /capabilities/syntax):\n${syntaxText}`,
      )
      .replace(schema, `Stream (GET /streams/describe/plant_telemetry):\n${describeJson}`),
  }));
  if (verbatimDraft.every((m, i) => m.content === draft[i]?.content)) {
    throw new Error(
      'the digest or schema text was not found in the draft prompt: the verbatim comparison would be void',
    );
  }

  const prompts: PromptCostRow[] = [
    { what: 'draft_sql prompt (system + user, chat framing)', tokens: countChat(draft) },
    { what: 'revise_sql prompt, first repair (engine error, compacted)', tokens: countChat(revise) },
    { what: '… of which the catalog digest (describeCatalog)', tokens: countText(digest) },
    { what: '… of which the 40-column schema (describeSchema)', tokens: countText(schema) },
  ];
  const verbatim: PromptCostRow[] = [
    { what: 'functions_list.json as served (135 functions)', tokens: countText(functionsText) },
    { what: 'functions_list.json minified', tokens: countText(JSON.stringify(JSON.parse(functionsText))) },
    { what: 'syntax_capabilities.json as served', tokens: countText(syntaxText) },
    { what: 'syntax_capabilities.json minified', tokens: countText(JSON.stringify(JSON.parse(syntaxText))) },
    { what: '40-column stream describe JSON', tokens: countText(describeJson) },
    { what: 'the engine error uncompacted (full function list)', tokens: countText(engineError) },
    { what: 'draft_sql prompt with the catalogs verbatim', tokens: countChat(verbatimDraft) },
  ];
  const verbatimDraftTokens = verbatim[verbatim.length - 1]?.tokens.o200k ?? NaN;
  return {
    functions: (JSON.parse(functionsText) as unknown[]).length,
    syntax_rules: catalog.syntax.length,
    stream_columns: columns.length,
    prompts,
    verbatim,
    verbatim_over_digest: Math.round((verbatimDraftTokens / (prompts[0]?.tokens.o200k ?? NaN)) * 10) / 10,
  };
}
