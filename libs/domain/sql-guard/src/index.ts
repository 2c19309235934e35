export { extractSql } from './clean-sql';
export {
  describeChar,
  isSymbol,
  isWord,
  significant,
  splitStatements,
  tokenize,
  type LexOptions,
  type LexProblem,
  type LexResult,
  type Token,
  type TokenKind,
} from './lexer';
export { prevalidate } from './prevalidate';
export { assertSingleSelect, UnsafeSqlError } from './single-select';
export { MAX_SQL_LENGTH, type SafetyCode } from './statement-safety';
export type { Grounding, GroundedFunction, PrevalidateResult, SqlDialect } from './types';
export { buildStructure, lowerWord, type Structure } from './structure';
export { HARD_KEYWORDS } from './keywords';
