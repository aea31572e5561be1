import type { ForkPoint } from '../../../shared/api';
import type { ThreadMessage } from '../../stores/conversations-store';
import type { TimelineItem, Turn } from '../../model/turn-reducer';
import type { TranscriptEntry } from '../../model/transcript-context';
import type { VersionSpot } from './VersionSwitcher';

/** The rows of the transcript (MessageList), and what each says of itself to the rows around it. */
export type Row =
  | { kind: 'earlier'; key: string }
  | {
      kind: 'history';
      key: string;
      message: ThreadMessage;
      position: number;
      earlier?: true;
      /** The reply of the person's message at `position`, which the history holds nothing for. */
      silent?: true;
      /** The live turn this reply streamed as here, shown on (use-continued-replies.ts). */
      continues?: Turn;
    }
  | { kind: 'live'; key: string; item: TimelineItem }
  | { kind: 'versions'; key: string; spot: VersionSpot };

export const entryOf = (row: Row): TranscriptEntry =>
  row.kind === 'earlier' || row.kind === 'versions'
    ? null
    : row.kind === 'history'
      ? row.message.role === 'user'
        ? { role: 'user', text: row.message.content }
        : { role: 'reply' }
      : row.item.kind === 'user'
        ? { role: 'user', text: row.item.text }
        : { role: 'reply' };

/** Where a branch from a reply row ends: its place in the history, or its turn. */
export function branchPoint(row: Row): ForkPoint | undefined {
  if (row.kind === 'history' && row.message.role === 'assistant') return { firstMessages: row.position + 1 };
  if (row.kind === 'live' && row.item.kind === 'turn') return { turnId: row.item.turnId };
  return undefined;
}

/**
 * A turn stopped or failed before it said a word leaves no reply on the server, so the app's stored detail
 * sits on its question (history-merge.ts); it is shown as the reply it was, with its reason and Retry.
 * A turn the app did not see end has no state here: if it still runs, the live stream shows it.
 */
export function silentReply(message: ThreadMessage): ThreadMessage | undefined {
  if (message.role !== 'user' || !message.detail?.state) return undefined;
  return { role: 'assistant', content: '', at: message.at, detail: message.detail };
}
