import { GUARD_DIALECTS } from '../dialects';
import { Findings } from '../findings';
import { inspectSafety } from '../statement-safety';
import { buildStructure } from '../structure';
import type { Grounding } from '../types';
import { analyzeSqlTarget } from '../sql-target/query';
import type { SqlTargetRule } from '../sql-target/rule';
import { analyzeVeloflux } from '../veloflux/query';
import type { VelofluxRule } from '../veloflux/rule';
import { CONTRACT_STREAMS, VELOFLUX_FUNCTIONS } from './contract';

/** The contract's streams as a grounding, on `stream` (sensor_stream unless told). */
export function contractGrounding(stream = 'sensor_stream', extra: Partial<Grounding> = {}): Grounding {
  const found = CONTRACT_STREAMS.find((s) => s.name === stream);
  return {
    dialect: 'veloflux',
    streams: CONTRACT_STREAMS.map((s) => s.name),
    stream,
    columns: found?.columns ?? [],
    functions: VELOFLUX_FUNCTIONS,
    ...extra,
  };
}

/** What one rule alone finds in `sql` (analysed as prevalidate does). */
export function findingsOf(
  rule: VelofluxRule,
  sql: string,
  grounding: Grounding = contractGrounding(),
): { errors: string[]; warnings: string[] } {
  const statement = inspectSafety(sql, 'veloflux').statements[0] ?? [];
  const query = analyzeVeloflux(buildStructure(statement), grounding);
  const out = new Findings();
  rule.check(query, out);
  return { errors: out.errors, warnings: out.warnings };
}

export function errorsOf(rule: VelofluxRule, sql: string, grounding?: Grounding): string[] {
  return findingsOf(rule, sql, grounding).errors;
}

/** A DuckDB table and a second one, as the SQL targets' grounding. */
export function sqlGrounding(dialect: 'duckdb' | 'postgres' = 'duckdb', extra: Partial<Grounding> = {}): Grounding {
  return {
    dialect,
    streams: ['readings', 'devices'],
    stream: 'readings',
    columns: [
      { name: 'device_id', data_type: 'VARCHAR' },
      { name: 'temperature', data_type: 'DOUBLE' },
      { name: 'ts', data_type: 'TIMESTAMP' },
    ],
    columnsByTable: {
      devices: [
        { name: 'device_id', data_type: 'VARCHAR' },
        { name: 'site', data_type: 'VARCHAR' },
      ],
    },
    functions: [
      { name: 'avg' },
      { name: 'count' },
      { name: 'date_trunc' },
      { name: 'generate_series' },
      { name: 'upper' },
    ],
    ...extra,
  };
}

/** What one DuckDB/PostgreSQL rule alone reports in `sql`. */
export function sqlErrorsOf(rule: SqlTargetRule, sql: string, grounding: Grounding = sqlGrounding()): string[] {
  const statement = inspectSafety(sql, grounding.dialect).statements[0] ?? [];
  const { label, fromFirst } = GUARD_DIALECTS[grounding.dialect];
  const query = analyzeSqlTarget(buildStructure(statement), grounding, { label, fromFirst });
  const out = new Findings();
  rule.check(query, out);
  return out.errors;
}
