/**
 * Unicode's explicit direction controls (embeddings, overrides and isolates: U+202A–U+202E, U+2066–U+2069).
 * Shown as they are, they reorder what follows, so `invoice\u202Efdp.exe` reads as "invoiceexe.pdf" and a
 * line of code reads other than it runs. Text that others chose (names, titles, file names, replies) shows
 * each one as a visible tag instead, `[U+202E]`; the data itself is never changed, only what is displayed.
 */
const DIRECTION_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

export function showDirectionControls(text: string): string {
  return text.replace(
    DIRECTION_CONTROLS,
    (c) => `[U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}]`,
  );
}
