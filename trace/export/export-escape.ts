// Escaping for the text exports, so that no field of a trace (a reply, a client's name, a Redis version:
// all of them come from files anyone can write) can change the grammar it is written into: a line break
// cannot start a Mermaid line (`click …`, `%%{init…}%%`) or forge a row of the text flow, a control
// character cannot drive a terminal, and a CSV cell cannot start a spreadsheet formula. Pure.

/** Line breaks and other control characters (C0, DEL, C1, the Unicode line and paragraph separators). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The text on one line, each control character written visibly (\n, \r, \t, \u001b, …). */
export function oneLine(text: string): string {
  return text.replace(CONTROL, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A number as written by the exports (a cell that is one is left alone: it starts no formula). */
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A CSV cell's text as spreadsheets expect it made inert (OWASP's CSV injection advice): a cell starting
 * with =, +, -, @, a tab or a carriage return, that is not a plain number, gets a leading apostrophe, which
 * Excel, LibreOffice and Google Sheets show as text instead of evaluating.
 */
export function inertCell(text: string): string {
  return /^[=+\-@\t\r]/.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** A CSV cell (RFC 4180): made inert, then quoted where it needs to be. */
export function csvCell(text: string): string {
  const cell = inertCell(text);
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/** A CSV cell always quoted (redis-benchmark's style), made inert first. */
export function quotedCsvCell(text: string): string {
  return `"${inertCell(text).replaceAll('"', '""')}"`;
}
