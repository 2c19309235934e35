/** The model output holds no usable JSON; the message says what was wrong, for the corrective call. */
export class JsonExtractionError extends Error {
  override readonly name = 'JsonExtractionError';
}

type ParseResult = { ok: true; value: unknown } | { ok: false; error: string };

function tryParse(text: string): ParseResult {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Index of the `}` closing the object that opens at `start`, or -1 when it is never closed.
 * Braces inside JSON strings (with escapes) do not count, so `{"a": "}"}` closes at the end.
 */
function findClosingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
    } else if (ch === '{') {
      depth++;
    } else if (ch === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

const FENCED_BLOCK = /```[^\n]*\n([\s\S]*?)```/g;

/**
 * Parses the JSON a model answered with, tolerating what chat models wrap around it: code fences
 * (```json … ```) and prose before or after. Tries, in order: the whole (trimmed) text, each
 * fenced block, then the first balanced top-level `{…}` block that parses (braces inside JSON
 * strings are respected; blocks that do not parse, e.g. `{placeholders}` in prose, are skipped).
 *
 * @throws {JsonExtractionError} with a message fit to show the model in a corrective turn.
 */
export function extractJson(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') {
    throw new JsonExtractionError('The answer is empty; expected a JSON object.');
  }

  const whole = tryParse(trimmed);
  if (whole.ok) return whole.value;

  for (const match of trimmed.matchAll(FENCED_BLOCK)) {
    const fenced = tryParse((match[1] ?? '').trim());
    if (fenced.ok) return fenced.value;
  }

  let lastError: string | undefined;
  let start = trimmed.indexOf('{');
  if (start === -1) {
    throw new JsonExtractionError('The answer contains no JSON object (no "{" found).');
  }
  while (start !== -1) {
    const end = findClosingBrace(trimmed, start);
    if (end === -1) {
      // Later braces are nested inside this unclosed one; parsing them would return a fragment.
      throw new JsonExtractionError(
        `The JSON object starting at character ${start} is never closed; the answer looks truncated.` +
          (lastError ? ` An earlier {...} block was not valid JSON either: ${lastError}` : ''),
      );
    }
    const candidate = tryParse(trimmed.slice(start, end + 1));
    if (candidate.ok) return candidate.value;
    lastError = candidate.error;
    start = trimmed.indexOf('{', end + 1);
  }
  throw new JsonExtractionError(`The answer contains a {...} block but it is not valid JSON: ${lastError}`);
}
