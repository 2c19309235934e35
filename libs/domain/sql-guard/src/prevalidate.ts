import { extractSql } from './clean-sql';
import { inspectSafety, type SafetyFinding } from './statement-safety';
import { buildStructure } from './structure';
import { GUARD_DIALECTS } from './dialects';
import type { Grounding, PrevalidateResult } from './types';
import { Findings } from './findings';

/** Turns a statement-level finding into a message that tells the model what to send instead. */
function safetyMessage(finding: SafetyFinding, grounding: Grounding): string {
  const dialect = GUARD_DIALECTS[grounding.dialect];
  const from = `FROM ${grounding.stream || `<${dialect.sourceNoun}>`}`;
  switch (finding.code) {
    case 'empty':
      return `there is no SQL to check; answer with one SELECT … ${from}`;
    case 'too-long':
      return `${finding.detail}; write a shorter query`;
    case 'lex':
      return finding.detail;
    case 'multiple-statements':
      return `only one SQL statement is allowed: ${finding.detail}; send just the SELECT, with no second statement after ';'`;
    case 'not-select':
      if (finding.found === 'WITH' && dialect.withUnsupported) {
        return `${dialect.withUnsupported}; write one SELECT … ${from} without WITH`;
      }
      return `only a single SELECT statement is allowed (found ${finding.found}); rewrite the request as one SELECT … ${from}`;
    case 'forbidden-keyword': {
      const word = finding.found.toLowerCase();
      const quoteHint = /^[a-z]+$/.test(word) ? `; if '${word}' is meant as a column name, quote it: "${word}"` : '';
      return `only a single SELECT statement is allowed (found ${finding.found}): ${finding.detail}${quoteHint}`;
    }
    case 'side-effect':
      return `${finding.detail}; only plain reads of the known tables are allowed, remove ${finding.found}`;
    case 'file-access':
      return `${finding.detail}; query one of the known tables instead`;
  }
}

/**
 * Checks drafted SQL against the grounding before anything is sent to an engine. No I/O.
 *
 * Runs {@link extractSql} first, then: exactly one statement; a SELECT (nothing that writes, even
 * inside a CTE); every stream/table, column, struct field and function exists in the grounding; and,
 * for veloFlux, none of the constructs its planner rejects (contract §7: `IS NULL`, `LIKE`, `||`,
 * `CAST … AS`, `::`, `INTERVAL`, `EXTRACT`, subqueries, joins, misplaced or extra windows,
 * non-`'ss'` time units, `NULLS FIRST/LAST`, unparenthesized `a->b > 1`, a quoted stream name, …).
 * Each error names the problem and what to write instead, because it is fed back to the model to
 * repair the SQL and shown to people.
 *
 * Checks whose grounding is empty are skipped (no columns: no column check; no functions: no
 * function check; no streams: no FROM check). Warnings flag constructs the engine accepts but
 * ignores (veloFlux `LIMIT`, `SELECT DISTINCT`); they never fail the check.
 */
export function prevalidate(sqlText: string, grounding: Grounding): PrevalidateResult {
  // Text with no recognisable statement (`SELEC …`) is still checked as is, so the model hears
  // what is wrong with it rather than "there is no SQL".
  const sql = extractSql(sqlText) || sqlText.trim().replace(/[\s;]+$/u, '');
  const safety = inspectSafety(sql, grounding.dialect);
  const errors = safety.findings.map((f) => safetyMessage(f, grounding));
  errors.push(...safety.otherLexProblems.map((p) => p.message));
  if (errors.length > 0) return { ok: false, sql, errors: [...new Set(errors)], warnings: [] };

  const structure = buildStructure(safety.statements[0] ?? []);
  if (structure.problems.length > 0) return { ok: false, sql, errors: structure.problems, warnings: [] };

  const findings = new Findings();
  GUARD_DIALECTS[grounding.dialect].rules(structure, grounding, findings);
  const found = findings.errors;
  return found.length > 0
    ? { ok: false, sql, errors: found, warnings: findings.warnings }
    : { ok: true, sql, warnings: findings.warnings };
}
