import type { EngineErrorKind } from '../port';

/**
 * DuckDB error classes that describe the environment rather than the query (interrupts, I/O,
 * memory, internal faults). They are thrown, never reported as a verdict on the SQL, so the repair
 * loop does not rewrite a good query because the machine was busy.
 */
const INFRASTRUCTURE_ERRORS =
  /^(INTERRUPT|FATAL|INTERNAL|Connection|IO|Out of Memory|Network|HTTP|Scheduler|TransactionContext|Serialization) Error/i;

/** Whether a DuckDB error message is about the environment rather than the SQL. */
export function isDuckDbInfrastructureError(message: string): boolean {
  return INFRASTRUCTURE_ERRORS.test(message.trim());
}

/** Whether a DuckDB error is the interrupt this adapter sends when a query runs out of time. */
export function isDuckDbInterrupt(message: string): boolean {
  return /^INTERRUPT Error/i.test(message.trim());
}

/**
 * Classifies DuckDB's error text (`<Class> Error: <message>`). DuckDB has no error codes in the
 * Node API, so this keys on the class prefix and the message wording, which is stable across 1.x.
 * Order matters: `Table Function with name … does not exist` is a function, not a table.
 */
export function classifyDuckDbError(message: string): EngineErrorKind {
  const text = message.trim();
  if (/^(Parser|Syntax) Error/i.test(text)) return 'syntax';
  if (
    /Referenced column .* not found|does not have a column named|Column .* not found|Referenced struct field .* not found|Could not find key .* in struct/i.test(
      text,
    )
  ) {
    return 'unknown_column';
  }
  if (
    /(Scalar |Aggregate |Table |Macro |Pragma |Window )?Function with name .* does not exist|Function .* does not exist/i.test(
      text,
    )
  ) {
    return 'unknown_function';
  }
  if (
    /(Table|View|Table or view) with name .* does not exist|Referenced table .* not found|Schema with name .* does not exist|Catalog .* does not exist/i.test(
      text,
    )
  ) {
    return 'unknown_stream';
  }
  if (
    /^(Binder|Catalog|Conversion|Invalid Input|Not implemented|Permission|Out of Range|Invalid type|Mismatch Type|Type Mismatch|Constraint|Dependency|Expression|Planner|Optimizer|Parameter Not (Resolved|Allowed)|Division by Zero|Divide by Zero|Sequence) Error/i.test(
      text,
    )
  ) {
    return 'semantic';
  }
  return 'other';
}
