import type { ChatMessage, ConversationSummary } from '../../shared/api';

/**
 * In-app search over what is loaded: titles, plus the text of threads already
 * opened (browser find cannot see virtualised rows). Pure.
 */
export function searchConversations(
  items: readonly ConversationSummary[],
  query: string,
  threads: Readonly<Record<string, { messages: readonly ChatMessage[] } | undefined>>,
  liveTitles: Readonly<Record<string, string | undefined>> = {},
): ConversationSummary[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return items.slice();
  return items.filter((item) => {
    const haystack = [
      item.title ?? '',
      liveTitles[item.id] ?? '',
      ...(threads[item.id]?.messages.map((m) => m.content) ?? []),
    ]
      .join('\n')
      .toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

export const untitled = 'New conversation';

export function conversationTitle(item: Pick<ConversationSummary, 'title'>, liveTitle?: string): string {
  // Title events also land in the list item, so a later rename wins over the automatic title.
  return item.title || liveTitle || untitled;
}

/** The conversations nothing was said in yet first (a draft + New opened), the rest in their order. Pure. */
export function draftsFirst<T>(items: readonly T[], isDraft: (item: T) => boolean): T[] {
  const drafts = items.filter(isDraft);
  return drafts.length === 0 ? items.slice() : [...drafts, ...items.filter((item) => !isDraft(item))];
}
