/**
 * CSV as RFC 4180 writes it (no CSV library is installed): fields separated by commas, records by
 * CRLF or LF; a field in double quotes may hold commas, line breaks and doubled quotes (`""`).
 * A trailing line break does not start an empty record. Unquoted fields are taken as they are
 * (no trimming); a quote inside an unquoted field is kept as a character, as lenient readers do.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const s = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const endField = () => {
    record.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    records.push(record);
    record = [];
  };
  while (i < s.length) {
    const ch = s[i];
    if (quoted) {
      if (ch === '"') {
        if (s[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i += 1;
        continue;
      }
      field += ch;
      i += 1;
      continue;
    }
    if (ch === '"' && field === '') {
      quoted = true;
    } else if (ch === ',') {
      endField();
    } else if (ch === '\r' && s[i + 1] === '\n') {
      endRecord();
      i += 1;
    } else if (ch === '\n' || ch === '\r') {
      endRecord();
    } else {
      field += ch;
    }
    i += 1;
  }
  if (quoted) throw new Error('CSV ends inside a quoted field');
  if (field !== '' || record.length > 0) endRecord();
  return records;
}

/** Records keyed by the header row's names; a short record leaves the missing fields empty. */
export function csvObjects(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  return rows
    .filter((r) => !(r.length === 1 && r[0] === ''))
    .map((r) => Object.fromEntries(header.map((name, j) => [name.trim(), r[j] ?? ''])));
}
