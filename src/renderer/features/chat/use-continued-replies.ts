import { useMemo, useRef } from 'react';
import type { ThreadMessage } from '../../stores/conversations-store';
import { foldedReplies, matchContinued, type ContinuedReply } from '../../model/continued-replies';
import type { ConversationStream } from '../../model/turn-reducer';

/**
 * The history's messages that are replies this list showed streaming (continued-replies.ts), each with the
 * live turn and row key to go on showing. Kept for the list's life (one conversation): once the list is
 * gone, so is what it built.
 */
export function useContinuedReplies(
  stream: ConversationStream,
  messages: readonly ThreadMessage[],
): ReadonlyMap<ThreadMessage, ContinuedReply> {
  const seen = useRef<{
    stream?: ConversationStream;
    messages?: readonly ThreadMessage[];
    kept: ContinuedReply[];
    matched: WeakMap<ThreadMessage, ContinuedReply | null>;
    byMessage: ReadonlyMap<ThreadMessage, ContinuedReply>;
  }>({ kept: [], matched: new WeakMap(), byMessage: new Map() });
  return useMemo(() => {
    const state = seen.current;
    const folded = foldedReplies(state.stream, stream);
    state.stream = stream;
    // The same answer while only the streaming turn grows (every frame): the rows built on it stay as they are.
    if (folded.length === 0 && messages === state.messages) return state.byMessage;
    state.messages = messages;
    if (folded.length > 0) {
      // Messages told apart from the kept replies before may be these ones.
      state.kept = [...state.kept, ...folded];
      state.matched = new WeakMap();
    }
    const { byMessage, kept } = matchContinued(messages, state.kept, state.matched);
    state.kept = kept;
    state.byMessage = byMessage;
    return byMessage;
  }, [stream, messages]);
}
