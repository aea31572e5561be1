import type { SendMessageInput, TurnSummary, TurnState } from '../../../shared/api';
import type { ConversationUpdate, Unsubscribe } from '../../../shared/bridge';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';
import { useConversationsStore } from '../../stores/conversations-store';
import { answerByRules } from './rule-answers';
import { usePermissionsStore } from '../../stores/permissions-store';
import { useSettingsStore } from '../../stores/settings-store';
import { readThread } from '../../stores/thread-read';
import { useTurnStreamStore } from '../../stores/turn-stream-store';
import { sendProblems, type DraftAttachment } from '../../model/attachment-limits';
import { makeThumbnails, storeThumbnails } from './attachment-thumbnails';
import { createChunkBatcher } from './chunk-batcher';
import { forgetChosenModel, rememberChosenModel } from './chosen-model';
import { animationFrameScheduler } from './frame-scheduler';
import { inSendOrder } from './send-order';
import { eventTurnId, type StreamEvent } from '../../model/stream-event';
import {
  isTerminal,
  awaitsAnswer,
  turnStopped,
  userMessageAccepted,
  userMessageFailed,
  userMessageSent,
  userThumbnailsShown,
} from '../../model/turn-reducer';

/**
 * The thin I/O shell around the turn reducer: subscriptions to conversation
 * streams, sending, cancelling and model changes. Subscriptions stay open
 * while the agent is shown, so a prompt keeps its state when the person
 * switches conversations and comes back.
 */
const watched = new Map<string, Unsubscribe>();

export function watchConversation(agentId: string, sessionId: string): void {
  if (watched.has(sessionId)) return;
  const batcher = createChunkBatcher(
    (events) => deliver(agentId, sessionId, events),
    animationFrameScheduler,
  );
  const stop = desk().onConversationEvent(agentId, sessionId, (update: ConversationUpdate) => {
    if (update.kind === 'connection') {
      if (update.connection.state !== 'open') batcher.flush();
      useTurnStreamStore.getState().setConnection(sessionId, update.connection);
      return;
    }
    // The bridge delivers events already checked against the shared contract.
    batcher.push(update.event);
  });
  watched.set(sessionId, () => {
    batcher.dispose();
    stop();
  });
}

export function unwatchAll(): void {
  for (const stop of watched.values()) stop();
  watched.clear();
}

function deliver(agentId: string, sessionId: string, events: StreamEvent[]): void {
  const streams = useTurnStreamStore.getState();
  const before = streams.streams[sessionId];
  streams.applyEvents(sessionId, events);
  const after = useTurnStreamStore.getState().streams[sessionId];
  if (!after || after === before) return;
  const conversations = useConversationsStore.getState();
  for (const event of events) {
    if (event.event === 'title') conversations.applyTitle(agentId, sessionId, event.data.title);
    if (event.event === 'permission') usePermissionsStore.getState().noteSeen(sessionId, event.data.id);
    if (event.event === 'models') forgetChosenModel(sessionId);
  }
  if (events.some((event) => event.event === 'permission')) void answerByRules(agentId, sessionId);
  // The list's badge follows every turn the stream speaks of by id.
  const turnIds = new Set(events.map(eventTurnId).filter((id) => !!id));
  let foreignTurnEnded = false;
  for (const turnId of turnIds) {
    const turn = after.turns[turnId as string];
    if (!turn) continue;
    // Seen running, now ended (a finished turn replayed on connect is left to the history).
    const seen = before?.turns[turn.turnId];
    const ended = !!seen && !isTerminal(seen.state) && isTerminal(turn.state);
    if (ended && !after.items.some((item) => item.kind === 'user' && item.turnId === turn.turnId))
      foreignTurnEnded = true;
    const shown = conversations.byAgent[agentId]?.items.find((i) => i.id === sessionId)?.lastTurn;
    if (shown?.turnId === turn.turnId && shown.state === turn.state) continue;
    conversations.applyTurn(agentId, sessionId, summary(turn.turnId, turn.state));
    const old = before?.turns[turn.turnId];
    if (old && !isTerminal(old.state) && isTerminal(turn.state)) notifyDone(sessionId, turn.state);
  }
  // A turn this window did not send (a scheduled one, another client's) ended: its message is in the history.
  // While a send of ours awaits its answer, that turn may be ours: the history is read once the answer is in,
  // else it would show the message a second time beside the one still sending.
  if (foreignTurnEnded) {
    if (awaitsAnswer(after)) historyWanted.add(sessionId);
    else void openConversation(agentId, sessionId);
  }
}

/** Conversations whose history is to be read again once no send of theirs awaits its answer. */
const historyWanted = new Set<string>();

/** After a send's answer: the history read that waited for it, if no other send still waits. */
function readHistoryWanted(agentId: string, sessionId: string): void {
  if (!historyWanted.has(sessionId) || awaitsAnswer(useTurnStreamStore.getState().streams[sessionId])) return;
  historyWanted.delete(sessionId);
  void openConversation(agentId, sessionId);
}

function summary(turnId: string, state: TurnState): TurnSummary {
  return { turnId, state, at: new Date().toISOString() };
}

/** An OS notification when a reply finishes while the window is not focused. */
function notifyDone(sessionId: string, state: TurnState): void {
  if (document.hasFocus() || !useSettingsStore.getState().settings.notifications) return;
  const conversations = useConversationsStore.getState();
  const item = Object.values(conversations.byAgent)
    .flatMap((entry) => entry.items)
    .find((i) => i.id === sessionId);
  const title = item?.title || useTurnStreamStore.getState().streams[sessionId]?.title || 'Conversation';
  const body =
    state === 'done'
      ? 'The reply is ready.'
      : state === 'error'
        ? 'The reply ended with an error.'
        : 'The reply was stopped.';
  void desk().notify({ title, body });
}

/** Loads the tail of a conversation and starts following its stream. */
export async function openConversation(agentId: string, sessionId: string): Promise<void> {
  watchConversation(agentId, sessionId);
  // Opened again while a send of ours awaits its answer (a slow host), a history already shown is read once
  // the answer is in: a read now may hold the message the timeline still shows as sending, or as sent by then.
  const shown = useConversationsStore.getState().threads[sessionId]?.status === 'ready';
  if (shown && awaitsAnswer(useTurnStreamStore.getState().streams[sessionId])) {
    historyWanted.add(sessionId);
    return;
  }
  // The history and the live timeline change in one step: no frame shows a finished turn in both.
  const unsure = await readThread(agentId, sessionId);
  // A message sent while the read was on its way (a starter sends as its conversation opens) may be in what
  // was read and still shown live: read again once its send is answered, which drops it from the live side.
  if (unsure) {
    historyWanted.add(sessionId);
    readHistoryWanted(agentId, sessionId);
  }
}

/** A message as the composer hands it over: the shared input, with the draft's attachments. */
export type ComposedMessage = Pick<SendMessageInput, 'content'> & { attachments: readonly DraftAttachment[] };

/** What the person last sent in each conversation, so Retry can send its attachments again too. */
const lastSent = new Map<string, ComposedMessage>();

/** The attachments last sent with `content` in this conversation (a Retry of that message sends them again). */
export function attachmentsLastSentWith(sessionId: string, content: string): readonly DraftAttachment[] {
  const sent = lastSent.get(sessionId);
  return sent?.content === content ? sent.attachments : [];
}

/**
 * Sends a message after any send or Retry of its conversation still on its way (send-order.ts); `problems`
 * come back when limits refuse it before it leaves.
 */
export function sendMessage(
  agentId: string,
  sessionId: string,
  input: ComposedMessage,
): Promise<{ problems: string[] }> {
  return inSendOrder(sessionId, () => sendNow(agentId, sessionId, input));
}

/** Sends a message at once: only from a step of {@link inSendOrder} for its conversation. */
export async function sendNow(
  agentId: string,
  sessionId: string,
  input: ComposedMessage,
): Promise<{ problems: string[] }> {
  const problems = sendProblems(input.attachments);
  if (problems.length > 0) return { problems };
  watchConversation(agentId, sessionId);
  const key = crypto.randomUUID();
  const streams = useTurnStreamStore.getState();
  const stream = streams.streams[sessionId];
  const thread = useConversationsStore.getState().threads[sessionId];
  const firstTurn =
    (thread?.messages.length ?? 0) === 0 && (thread?.skipped ?? 0) === 0 && !stream?.items.length;
  streams.update(sessionId, (s) =>
    userMessageSent(s, {
      key,
      text: input.content,
      attachments: input.attachments.map(({ name, mimeType, size }) => ({ name, mimeType, size })),
    }),
  );
  lastSent.set(sessionId, input);
  // A sent image shows its small picture at once, not only after the history is read again.
  const thumbnails = input.attachments.some((a) => a.mimeType.startsWith('image/'))
    ? makeThumbnails(input.attachments)
    : Promise.resolve([]);
  void thumbnails.then((shown) => {
    if (shown.some((t) => t !== null))
      useTurnStreamStore.getState().update(sessionId, (s) => userThumbnailsShown(s, key, shown));
  });
  const result = await desk().sendMessage(agentId, sessionId, {
    content: input.content,
    firstTurn,
    // The person's default (Settings): `preguntar` renders each permission prompt in the chat.
    permissionMode: useSettingsStore.getState().settings.permissionMode,
    attachments: input.attachments.map(({ name, mimeType, data }) => ({
      name,
      mimeType: mimeType || 'application/octet-stream',
      data,
    })),
  });
  if (!result.ok) {
    useTurnStreamStore
      .getState()
      .update(sessionId, (s) => userMessageFailed(s, key, errorWords(result.error)));
    readHistoryWanted(agentId, sessionId);
    return { problems: [] };
  }
  useTurnStreamStore.getState().update(sessionId, (s) => userMessageAccepted(s, key, result.value));
  readHistoryWanted(agentId, sessionId);
  const turnId = result.value.turnId;
  void thumbnails.then((shown) => storeThumbnails(agentId, sessionId, turnId, shown));
  if (!result.value.injected) {
    useConversationsStore
      .getState()
      .applyTurn(agentId, sessionId, summary(result.value.turnId, result.value.state));
  }
  return { problems: [] };
}

export async function cancelTurn(agentId: string, sessionId: string): Promise<string> {
  // The turn on screen when Stop was pressed: by the answer (which waits for the turn's end) a Retry may
  // have started the next one, which this answer did not stop.
  const current = useTurnStreamStore.getState().streams[sessionId]?.currentTurnId;
  const result = await desk().cancelTurn(agentId, sessionId);
  if (!result.ok) return errorWords(result.error);
  if (result.value.stopped && current) {
    // The stream may have said so first; the list then already knows, perhaps of a later turn too.
    const turn = useTurnStreamStore.getState().streams[sessionId]?.turns[current];
    if (turn && !isTerminal(turn.state)) {
      useTurnStreamStore.getState().update(sessionId, (s) => turnStopped(s, current));
      useConversationsStore.getState().applyTurn(agentId, sessionId, summary(current, 'stopped'));
    }
    return '';
  }
  return result.value.stopped
    ? ''
    : 'Nothing was running, or only the person who started the reply can stop it.';
}

export async function chooseModel(agentId: string, sessionId: string, model: string): Promise<string> {
  const result = await desk().setModel(agentId, sessionId, model);
  if (!result.ok) return errorWords(result.error);
  useTurnStreamStore.getState().update(sessionId, (s) => ({ ...s, chosenModel: model }));
  rememberChosenModel(sessionId, model);
  return '';
}
