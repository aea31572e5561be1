import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useConversationsStore, type Thread, type ThreadMessage } from '../../stores/conversations-store';
import { useSearchStore } from '../../stores/search-store';
import { isTerminal, type ConversationStream } from '../../model/turn-reducer';
import { transcriptContext, type EntryContext } from '../../model/transcript-context';
import { useServerOffers } from '../../ui/use-server-offers';
import { HistoryReplyRow, HistoryUserRow, LiveReplyRow, LiveUserRow, type RowActions } from './TranscriptRow';
import { branchPoint, entryOf, silentReply, type Row } from './transcript-rows';
import { useBottomFollow } from './use-bottom-follow';
import { useContinuedReplies } from './use-continued-replies';
import { useRovingLog } from './use-roving-log';
import { VersionSwitcher } from './VersionSwitcher';
import { useVersionSpots } from './use-version-spots';

const noMessages: ThreadMessage[] = [];
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

  const { spots, shown } = useVersionSpots(agentId, sessionId, thread);
  const continued = useContinuedReplies(stream, thread?.messages ?? noMessages);
  const rows = useMemo<Row[]>(() => {
    const list: Row[] = [];
    if (thread && thread.skipped > 0) list.push({ kind: 'earlier', key: 'earlier' });
    const messages = thread?.messages ?? [];
    // Keys are positions in the whole thread, so earlier pages prepend without renaming measured rows.
    const skipped = thread?.skipped ?? 0;
    const switcher = (position: number) => {
      const spot = spots.get(position);
      if (spot) list.push({ kind: 'versions', key: `v${position}`, spot });
    };
    for (const [index, message] of messages.entries()) {
      const position = skipped + index;
      // An earlier version is shown: from where it branched off, its messages stand in for the live ones.
      if (shown && position >= shown.from) break;
      // A reply that streamed here keeps its live row's key, so the view keeps what it built for it.
      const reply = continued.get(message);
      list.push(
        reply
          ? { kind: 'history', key: reply.key, message, position, continues: reply.turn }
          : { kind: 'history', key: `h${position}`, message, position },
      );
      if (message.role === 'user') switcher(position);
      const silent = silentReply(message);
      if (silent)
        list.push({ kind: 'history', key: `h${position}-reply`, message: silent, position, silent: true });
    }
    if (shown) {
      shown.messages.forEach((message, i) => {
        const position = shown.from + i;
        const kept = { ...message, at: new Date(message.at).toISOString() };
        list.push({ kind: 'history', key: `e${shown.id}:${i}`, message: kept, position, earlier: true });
        if (i === 0) switcher(position);
      });
      return list;
    }
    // Live messages of the person continue the positions (a reply takes the next one).
    let position = skipped + messages.length;
    for (const item of stream.items) {
      list.push({ kind: 'live', key: item.key, item });
      if (item.kind === 'user' && item.mode !== 'failed') switcher(position++);
      else if (item.kind === 'turn') position++;
    }
    return list;
  }, [thread, stream.items, spots, shown, continued]);

  // Per row: what it offers (Retry, Edit, Branch). Stable while the rows are, so streaming re-renders one row.
  const offersBranch = useServerOffers('forkConversation');
  const actions = useMemo(() => {
    const contexts = transcriptContext(rows.map(entryOf));
    return rows.map((row, i) =>
      row.kind === 'history' && row.earlier
        ? { context: { lastReply: false, lastUser: false }, branch: undefined }
        : { context: contexts[i] as EntryContext, branch: offersBranch ? branchPoint(row) : undefined },
    );
  }, [rows, offersBranch]);
  const current = stream.currentTurnId ? stream.turns[stream.currentTurnId] : undefined;
  const busy = !!current && !isTerminal(current.state);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 96,
    overscan: 6,
    getItemKey: (index) => rows[index]?.key ?? index,
  });

  const totalSize = virtualizer.getTotalSize();
  const bottom = useBottomFollow(scroller, sessionId, totalSize, rows.length);

  // A search result chose a message here: bring it into view (it is highlighted while targeted).
  const target = useSearchStore((s) => (s.target?.sessionId === sessionId ? s.target.position : null));
  const targetIndex =
    target === null
      ? -1
      : rows.findIndex((r) => r.kind === 'history' && r.position === target && !r.earlier && !r.silent);
  useEffect(() => {
    if (targetIndex < 0) return;
    bottom.leaveBottom();
    virtualizer.scrollToIndex(targetIndex, { align: 'center' });
  }, [targetIndex, virtualizer, bottom]);

  const loadingEarlier = thread?.loadingEarlier ?? false;
  const skippedCount = thread?.skipped ?? 0;
  const onScroll = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    bottom.scrolled(element);
    if (element.scrollTop < nearTopPx && skippedCount > 0 && !loadingEarlier) {
      bottom.keepDistance(element);
      void useConversationsStore.getState().loadEarlier(agentId, sessionId);
    }
  }, [agentId, sessionId, skippedCount, loadingEarlier, bottom]);

  // A brand-new message from the person always brings the view down.
  const lastItem = stream.items[stream.items.length - 1];
  useEffect(() => {
    if (lastItem?.kind === 'user') bottom.toBottom();
  }, [lastItem, bottom]);

  const roving = useRovingLog(
    scroller,
    (index) => virtualizer.scrollToIndex(index, { align: 'auto' }),
    rows.length,
  );

  return (
    <div
      ref={scroller}
      className="message-scroller"
      onScroll={onScroll}
      onWheel={bottom.scrolledByPerson}
      onTouchMove={bottom.scrolledByPerson}
      onPointerDown={(event) => {
        // Its scrollbar; or a press in a message, which scrolls the list while it lasts (selecting text
        // past an edge, the middle button's autoscroll).
        if (event.target === event.currentTarget) bottom.scrolledByPerson();
        else bottom.pressed();
      }}
      role="log"
      aria-label="Messages"
      aria-describedby="transcript-keys"
      onFocus={roving.onFocus}
      onBlur={roving.onBlur}
      onKeyDown={(event) => {
        bottom.scrolledByPerson();
        roving.onKeyDown(
          event,
          rows.length,
          (i) => rows[i]?.kind !== 'earlier' && rows[i]?.kind !== 'versions',
        );
      }}
    >
      <p id="transcript-keys" hidden>
        Up and Down arrows move between messages. Enter goes into a message, to its details and buttons;
        Escape comes back out.
      </p>
      <div className="message-canvas" style={{ height: totalSize }}>
        {virtualizer.getVirtualItems().map((virtualRow) => {
          const row = rows[virtualRow.index];
          if (!row) return null;
          return (
            <div
              key={virtualRow.key}
              data-index={virtualRow.index}
              ref={virtualizer.measureElement}
              className={`message-row${virtualRow.index === targetIndex ? ' search-target' : ''}${row.kind === 'history' && row.earlier ? ' earlier-version' : ''}`}
              style={{ transform: `translateY(${virtualRow.start}px)` }}
            >
              <RowView
                row={row}
                stream={stream}
                loadingEarlier={loadingEarlier}
                agentId={agentId}
                sessionId={sessionId}
                busy={busy}
                {...(actions[virtualRow.index] as Pick<RowActions, 'context' | 'branch'>)}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
}

function RowView(props: RowActions & { row: Row; stream: ConversationStream; loadingEarlier: boolean }) {
  const { row, stream, loadingEarlier: _loading, ...actions } = props;
  if (row.kind === 'versions') return <VersionSwitcher sessionId={props.sessionId} spot={row.spot} />;
  if (row.kind === 'earlier') {
    return (
      <p className="earlier">
        {props.loadingEarlier ? 'Loading earlier messages…' : 'Scroll up for earlier messages'}
      </p>
    );
  }
  if (row.kind === 'history') {
    if (row.continues) return <LiveReplyRow {...actions} turn={row.continues} text={row.message.content} />;
    return row.message.role === 'user' ? (
      <HistoryUserRow {...actions} message={row.message} />
    ) : (
      <HistoryReplyRow {...actions} message={row.message} />
    );
  }
  if (row.item.kind === 'user') return <LiveUserRow {...actions} item={row.item} />;
  const turn = stream.turns[row.item.turnId];
  return turn ? <LiveReplyRow {...actions} turn={turn} /> : null;
}
