/**
 * CSV as RFC 4180 writes it (comma separated, CRLF line ends, a field with a comma, quote or line
 * break quoted and its quotes doubled), made safe to open in a spreadsheet: a cell that begins with
 * = + - @ (or a tab or carriage return) would be read as a formula by Excel, LibreOffice and Google
 * Sheets, so it gets a leading apostrophe (OWASP's advice on CSV injection). Amounts are written
 * unsigned, so no number is ever changed by it.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell, neutralised and quoted as needed. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One record, ending in CRLF. */
export const csvRow = (cells: readonly string[]) => `${cells.map(csvCell).join(',')}\r\n`;
