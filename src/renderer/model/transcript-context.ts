/**
 * What each message of a transcript may offer, from its place in it: which text a Retry sends again
 * (the person's message the reply answered), which reply is the last (Retry), and which of the
 * person's messages is the last (Edit). Pure, so the rules are tested apart from the screen.
 */
export type TranscriptEntry = { role: 'user'; text: string } | { role: 'reply' } | null;

export interface EntryContext {
  /** For a reply: the person's message before it. For a message of the person: its own text. */
  retryText?: string;
  lastReply: boolean;
  lastUser: boolean;
}

export function transcriptContext(entries: readonly TranscriptEntry[]): EntryContext[] {
  let lastReply = -1;
  let lastUser = -1;
  entries.forEach((entry, i) => {
    if (entry?.role === 'reply') lastReply = i;
    if (entry?.role === 'user') lastUser = i;
  });
  let asked: string | undefined;
  return entries.map((entry, i) => {
    if (entry?.role === 'user') asked = entry.text;
    const retryText = entry === null ? undefined : asked;
    return {
      ...(retryText !== undefined ? { retryText } : {}),
      lastReply: i === lastReply,
      lastUser: i === lastUser,
    };
  });
}
