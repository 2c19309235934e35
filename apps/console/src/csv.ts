import type { Preview } from '@nl2p/envelope';

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. */
function field(value: unknown): string {
  if (value === null || value === undefined) return '';
  // Preview cells are JSON values: numbers and booleans print as JSON does, objects as JSON.
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The preview rows as CSV, header first, CRLF line ends. */
export function previewCsv(preview: Preview): string {
  return [preview.columns, ...preview.rows].map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}
