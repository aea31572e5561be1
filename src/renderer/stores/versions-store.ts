import { create } from 'zustand';
import type { ConversationVersionView } from '../../shared/api';
import { desk } from '../desk';

/**
 * The earlier versions of each conversation's exchanges, for the `‹ 1/2 ›` switcher:
 * - on a server with our rewind extension, the versions it keeps (`listConversationVersions`);
 * - on one with only the fork extension, Branch links: the conversation a Retry or Edit went on in, kept on
 *   this computer (localStorage), so the switcher opens the other conversation.
 * `viewing` is which earlier version is shown in place of the live one, per conversation (none: the live one).
 */
export interface BranchLink {
  /** Where the exchange starts (0-based message position). */
  from: number;
  /** The conversation holding the earlier version (`previous`) or the next one (`next`). */
  sessionId: string;
  direction: 'previous' | 'next';
}

interface VersionsStore {
  versions: Record<string, ConversationVersionView[]>;
  viewing: Record<string, { from: number; index: number } | undefined>;
  load(agentId: string, sessionId: string): Promise<void>;
  /** Shows the earlier version `index` of the exchange at `from`; `index` past the kept ones is the live one. */
  view(sessionId: string, from: number, index: number): void;
  links(sessionId: string): BranchLink[];
  link(from: string, to: string, at: number): void;
}

const LINKS_KEY = 'agentdesk.branch-versions';

function readLinks(): Record<string, BranchLink[]> {
  try {
    const parsed = JSON.parse(localStorage.getItem(LINKS_KEY) ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, BranchLink[]>) : {};
  } catch {
    return {};
  }
}

export const useVersionsStore = create<VersionsStore>((set, get) => ({
  versions: {},
  viewing: {},
  async load(agentId, sessionId) {
    const read = await desk().listConversationVersions(agentId, sessionId);
    if (read.ok) set({ versions: { ...get().versions, [sessionId]: read.value } });
  },
  view(sessionId, from, index) {
    const kept = (get().versions[sessionId] ?? []).filter((v) => v.from === from).length;
    set({ viewing: { ...get().viewing, [sessionId]: index >= kept ? undefined : { from, index } } });
  },
  links: (sessionId) => readLinks()[sessionId] ?? [],
  link(from, to, at) {
    const all = readLinks();
    all[from] = [...(all[from] ?? []), { from: at, sessionId: to, direction: 'next' }];
    all[to] = [...(all[to] ?? []), { from: at, sessionId: from, direction: 'previous' }];
    try {
      localStorage.setItem(LINKS_KEY, JSON.stringify(all));
    } catch {
      // A full or refused storage keeps no link: the two conversations are still both in the list.
    }
  },
}));
