/**
 * Puts dictated text where the cursor is (replacing a selection), with a space on either side when
 * it would otherwise run into a word. Returns the new text and where the cursor goes.
 */
export function insertAtCursor(
  text: string,
  start: number,
  end: number,
  spoken: string,
): { text: string; cursor: number } {
  const words = spoken.trim();
  if (!words) return { text, cursor: end };
  const before = text.slice(0, start);
  const after = text.slice(end);
  const lead = before && !/\s$/.test(before) ? ' ' : '';
  const trail = after && !/^\s/.test(after) ? ' ' : '';
  const inserted = `${lead}${words}${trail}`;
  return { text: before + inserted + after, cursor: before.length + lead.length + words.length };
}
