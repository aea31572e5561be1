import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useConversationsStore, type Thread, type ThreadMessage } from '../../stores/conversations-store';
import { useSearchStore } from '../../stores/search-store';
import { useUiStore } from '../../stores/ui-store';
import { ReplyMarkdown } from './ReplyMarkdown';
import { replayStoredTurn } from './stored-turn';
import { TurnReply } from './TurnReply';
import type { ConversationStream, TimelineItem, UserItem } from '../../model/turn-reducer';
import { showDirectionControls } from '../../model/bidi-controls';

type Row =
  | { kind: 'earlier'; key: string }
  | { kind: 'history'; key: string; message: ThreadMessage }
  | { kind: 'live'; key: string; item: TimelineItem };

const nearBottomPx = 48;
const nearTopPx = 300;

/**
 * The thread, virtualised: only rows on screen are in the DOM. It follows the
 * bottom while the person is there, keeps its place per conversation, and
 * loads earlier messages when scrolled to the top.
 */
export function MessageList(props: {
  agentId: string;
  sessionId: string;
  thread: Thread | undefined;
  stream: ConversationStream;
}) {
  const { agentId, sessionId, thread, stream } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const anchorFromBottom = useRef<number | null>(null);

  const rows = useMemo<Row[]>(() => {
    const list: Row[] = [];
    if (thread && thread.saltados > 0) list.push({ kind: 'earlier', key: 'earlier' });
    const messages = thread?.messages ?? [];
    // Keys are positions in the whole thread, so earlier pages prepend without renaming measured rows.
    const skipped = thread?.saltados ?? 0;
    messages.forEach((message, index) => list.push({ kind: 'history', key: `h${skipped + index}`, message }));
    for (const item of stream.items) list.push({ kind: 'live', key: item.key, item });
    return list;
  }, [thread, stream.items]);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 96,
    overscan: 6,
    getItemKey: (index) => rows[index]?.key ?? index,
  });

  // Open where the person left this conversation, or at the bottom.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const memory = useUiStore.getState().scroll[sessionId];
    const place = () => {
      element.scrollTop = element.scrollHeight - element.clientHeight - (memory?.fromBottom ?? 0);
      atBottom.current = !memory || memory.fromBottom < nearBottomPx;
    };
    place();
    const frame = requestAnimationFrame(place);
    return () => {
      cancelAnimationFrame(frame);
      const fromBottom = element.scrollHeight - element.clientHeight - element.scrollTop;
      useUiStore.getState().rememberScroll(sessionId, { fromBottom: Math.max(0, fromBottom) });
    };
  }, [sessionId]);

  // A search result chose a message here: bring it into view (it is highlighted while targeted).
  const target = useSearchStore((s) => (s.target?.sessionId === sessionId ? s.target.position : null));
  const targetIndex = target === null ? -1 : rows.findIndex((r) => r.key === `h${target}`);
  useEffect(() => {
    if (targetIndex < 0) return;
    atBottom.current = false;
    virtualizer.scrollToIndex(targetIndex, { align: 'center' });
  }, [targetIndex, virtualizer]);

  const totalSize = virtualizer.getTotalSize();
  // Earlier messages arrived: keep the same distance from the bottom so nothing jumps.
  const follow = useRef(0);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    if (anchorFromBottom.current !== null) {
      element.scrollTop = element.scrollHeight - anchorFromBottom.current;
      anchorFromBottom.current = null;
    } else if (atBottom.current && !follow.current) {
      // Following a growing reply: read its height in the next frame, where layout happens anyway,
      // not here, where reading it would lay the page out a second time inside React's commit.
      follow.current = requestAnimationFrame(() => {
        follow.current = 0;
        if (atBottom.current) element.scrollTop = element.scrollHeight;
      });
    }
  }, [totalSize, rows.length]);
  useEffect(() => () => cancelAnimationFrame(follow.current), []);

  const loadingEarlier = thread?.loadingEarlier ?? false;
  const saltados = thread?.saltados ?? 0;
  const onScroll = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < nearBottomPx;
    if (element.scrollTop < nearTopPx && saltados > 0 && !loadingEarlier) {
      anchorFromBottom.current = element.scrollHeight - element.scrollTop;
      void useConversationsStore.getState().loadEarlier(agentId, sessionId);
    }
  }, [agentId, sessionId, saltados, loadingEarlier]);

  // A brand-new message from the person always brings the view down.
  const lastItem = stream.items[stream.items.length - 1];
  useEffect(() => {
    if (lastItem?.kind === 'user') atBottom.current = true;
  }, [lastItem]);

  return (
    <div ref={scroller} className="message-scroller" onScroll={onScroll} role="log" aria-label="Messages">
      <div className="message-canvas" style={{ height: totalSize }}>
        {virtualizer.getVirtualItems().map((virtualRow) => {
          const row = rows[virtualRow.index];
          if (!row) return null;
          return (
            <div
              key={virtualRow.key}
              data-index={virtualRow.index}
              ref={virtualizer.measureElement}
              className={`message-row${row.key === `h${target}` ? ' search-target' : ''}`}
              style={{ transform: `translateY(${virtualRow.start}px)` }}
            >
              <RowView
                row={row}
                agentId={agentId}
                sessionId={sessionId}
                stream={stream}
                loadingEarlier={loadingEarlier}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
}

function RowView(props: {
  row: Row;
  agentId: string;
  sessionId: string;
  stream: ConversationStream;
  loadingEarlier: boolean;
}) {
  const { row } = props;
  if (row.kind === 'earlier') {
    return (
      <p className="earlier">
        {props.loadingEarlier ? 'Loading earlier messages…' : 'Scroll up for earlier messages'}
      </p>
    );
  }
  if (row.kind === 'history') {
    return <HistoryMessage message={row.message} agentId={props.agentId} sessionId={props.sessionId} />;
  }
  if (row.item.kind === 'user') return <UserMessage item={row.item} />;
  const turn = props.stream.turns[row.item.turnId];
  return turn ? <TurnReply agentId={props.agentId} sessionId={props.sessionId} turn={turn} /> : null;
}

const HistoryMessage = memo(function HistoryMessage(props: {
  message: ThreadMessage;
  agentId: string;
  sessionId: string;
}) {
  const { message } = props;
  // A reply whose streaming the app kept comes back as it was shown: thoughts, tools, permissions, usage.
  const turn = useMemo(
    () => (message.role === 'assistant' && message.detail ? replayStoredTurn(message.detail) : undefined),
    [message],
  );
  if (message.role === 'user') {
    return (
      <article className="message user" aria-label="Your message">
        <div className="user-text">{showDirectionControls(message.content)}</div>
        <StoredAttachments attachments={message.attachments} />
      </article>
    );
  }
  if (turn) {
    return (
      <>
        <TurnReply agentId={props.agentId} sessionId={props.sessionId} turn={turn} />
        {message.detail?.storedText !== undefined ? (
          <p className="stored-differs muted">
            The server keeps a different text of this reply than the one that streamed; its text is shown.
          </p>
        ) : null}
      </>
    );
  }
  return (
    <article className="message assistant" aria-label="Agent reply">
      <ReplyMarkdown text={message.content} />
    </article>
  );
});

/** Names, types and sizes of what was sent; images show their small stored picture. */
function StoredAttachments({ attachments }: { attachments: ThreadMessage['attachments'] }) {
  if (!attachments?.length) return null;
  return (
    <ul className="sent-attachments" aria-label="Attachments">
      {attachments.map((a, i) => (
        <li key={i} title={`${a.mimeType}, ${a.size} bytes`}>
          {a.thumbnail?.startsWith('data:image/') ? (
            <img className="attachment-thumbnail" src={a.thumbnail} alt="" width={48} height={48} />
          ) : null}
          {a.name}
        </li>
      ))}
    </ul>
  );
}

const modeWords: Record<UserItem['mode'], string> = {
  sending: 'Sending…',
  sent: '',
  injected: 'Added to the running reply',
  replacing: 'Replaced the previous reply',
  failed: 'Not sent',
};

const UserMessage = memo(function UserMessage({ item }: { item: UserItem }) {
  return (
    <article className={`message user mode-${item.mode}`} aria-label="Your message">
      <div className="user-text">{showDirectionControls(item.text)}</div>
      {item.attachments.length > 0 ? (
        <ul className="sent-attachments" aria-label="Attachments">
          {item.attachments.map((a, i) => (
            <li key={i}>{a.name}</li>
          ))}
        </ul>
      ) : null}
      {modeWords[item.mode] ? <p className="user-mode">{modeWords[item.mode]}</p> : null}
      {item.error ? (
        <p className="error-text" role="alert">
          {item.error}
        </p>
      ) : null}
    </article>
  );
});
