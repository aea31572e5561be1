import type { AgentList, ConversationSummary, SendMessageInput, StreamEvent } from '../../../shared/api';
import type { DeskResult } from '../../../shared/bridge';
import type { MemoryConversation, MemoryMethods } from '../../../shared/bridge/memory';
import type { Logger } from '../../log/logger';
import { exportJson, exportMarkdown } from '../../memory/transcript-export';
import { checkConversationIds, checkId } from '../plumbing/argument-checks';
import { fail } from '../plumbing/call-results';
import type { ActiveConnection } from '../plumbing/connection';
import { apiHistorySource, WHOLE_HISTORY } from './api-history-source';
import { describeAttachment } from './attachment-meta';
import { createConnectivity, isUnreachable } from './connectivity';
import { checkSearchQuery, checkThumbnails } from './memory-arguments';
import { memoryNotices } from './memory-notices';
import { memoryFile, ProfileMemory, removeProfileMemory, type MemorySettings } from './profile-memory';

export interface MemoryAreaOptions {
  dataDir: string;
  connection: ActiveConnection;
  logger: Logger;
  settings?: MemorySettings;
  now?: () => number;
}

export interface MemoryArea {
  bridge: MemoryMethods;
  /** Records an event the host streams to the renderer. */
  observe(agentId: string, sessionId: string, event: StreamEvent): void;
  /** Records what was sent with a turn the server accepted (text, attachment names, types, sizes). */
  noteSent(agentId: string, sessionId: string, input: SendMessageInput, turnId: string): void;
  /** Keeps a conversation's new title (after a rename the server accepted). */
  noteTitle(agentId: string, sessionId: string, title: string): void;
  /** A rewind cut the conversation back to its first `keep` messages (the first cut was said at `at`). */
  noteRewound(sessionId: string, keep: number, at: number): void;
  /** A network failure to answer at once while the server is known to be unreachable, else null. */
  offlineAnswer(): DeskResult<never> | null;
  /** The agent list: kept when the server answers, served from the store when it can't be reached. */
  rememberAgents(answer: DeskResult<AgentList>): DeskResult<AgentList>;
  rememberConversations(
    agentId: string,
    answer: DeskResult<ConversationSummary[]>,
  ): DeskResult<ConversationSummary[]>;
  /** Deletes a removed profile's store. */
  forget(profileId: string): void;
  /** Resolves once the open store is closed, its writer thread included: a new start may open it then. */
  close(): Promise<void>;
}

const NOT_STORED = "The server can't be reached, and this conversation isn't stored on this computer yet.";
const AGENTS_KEY = 'agents';

/**
 * The memory area: keeps what the app sees in the active profile's transcript store, serves
 * conversations merged with it (or read-only from it while offline), search and export, and
 * indexes history never downloaded in the background.
 */
export function createMemoryArea(options: MemoryAreaOptions): MemoryArea {
  const { connection, logger, dataDir } = options;
  const settings = options.settings ?? {};
  const now = options.now ?? Date.now;
  let open: ProfileMemory | null = null;
  const source = apiHistorySource(connection.withApi);
  const connectivity = createConnectivity({
    probe: () => connection.withApi((api) => api.listAgents()),
    server: () => connection.current()?.baseUrl,
    logger,
    ...(settings.probeMs ? { probeMs: settings.probeMs } : {}),
  });

  /** While offline, calls go to the store at once; the probe says when the server is back. */
  const offlineAnswer = (): DeskResult<never> | null => {
    const state = connectivity.current();
    return state.online ? null : fail('network', state.reason ?? "The server can't be reached.");
  };

  const close = (): Promise<void> => {
    const closed = open?.close() ?? Promise.resolve();
    open = null;
    return closed;
  };
  /** The active profile's store, opened on first use. */
  const memory = (): ProfileMemory | null => {
    const profileId = connection.current()?.profile.id;
    if (!profileId) return null;
    if (open?.profileId === profileId) return open;
    void close();
    try {
      open = new ProfileMemory(profileId, memoryFile(dataDir, profileId), settings, logger, () =>
        notices.changed(),
      );
      if (open.setAside) notices.changed();
    } catch (error) {
      logger.error('The transcript store could not be opened.', error);
    }
    return open;
  };

  const notices = memoryNotices(logger, memory);

  connection.on((event) => {
    if (event.type === 'dropped') void close();
    else if (event.type === 'tokens' && event.event.type === 'signed-out') open?.stopIndexing();
    else if (event.connection.tokens.signedIn) memory()?.startIndexing(source);
  });

  const conversation = async (
    agentId: string,
    sessionId: string,
    limit: number | undefined,
  ): Promise<DeskResult<MemoryConversation>> => {
    const fetchedAt = Date.now(); // a turn recorded meanwhile is newer than this history (history-writer.ts)
    const answer =
      offlineAnswer() ??
      (await connection.withApi((api) =>
        api.getConversation(agentId, sessionId, limit === undefined ? {} : { limit }),
      ));
    connectivity.note(answer);
    const mem = memory();
    if (!mem) return answer.ok ? fail('signed_out', 'Choose an account first.') : answer;
    const { store } = mem;
    await mem.written(sessionId); // so the turns read beside the server's text are current
    const opened = (
      history: ReturnType<typeof store.merged>,
      lastTurn: MemoryConversation['lastTurn'],
      offline: boolean,
    ): DeskResult<MemoryConversation> => ({
      ok: true,
      value: {
        ...history,
        agentId,
        conversationId: sessionId,
        title: store.lists.title(sessionId),
        lastTurn,
        models: store.latestModels(sessionId) as MemoryConversation['models'],
        offline,
      },
    });
    if (answer.ok) {
      const messages = answer.value.messages.map((m) => ({ ...m, at: Date.parse(m.at) }));
      // Written by the store's writer thread: the opening does not wait for it (the text is the server's).
      store.saveOpenedHistory(agentId, sessionId, messages, answer.value.skipped, fetchedAt).then(
        () => mem.noteWrite(undefined),
        (error: unknown) => mem.noteWrite(error),
      );
      const history = store.merged(sessionId, { messages, skipped: answer.value.skipped });
      return opened(history, answer.value.lastTurn, false);
    }
    if (!isUnreachable(answer)) return answer;
    if (!store.lists.knows(sessionId)) return fail('offline', NOT_STORED);
    return opened(store.merged(sessionId, undefined, limit), null, true);
  };

  const bridge: MemoryMethods = {
    async openConversation(agentId, sessionId, openOptions = {}) {
      const invalid = checkConversationIds(agentId, sessionId);
      if (invalid) return { ok: false, error: invalid };
      const limit = openOptions?.limit;
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
        return fail('invalid_argument', 'The message limit must be a whole number.');
      }
      return conversation(agentId, sessionId, limit);
    },

    async searchConversations(query) {
      const checked = checkSearchQuery(query);
      if (!checked.ok) return checked;
      const mem = memory();
      if (!mem) return fail('signed_out', 'Choose an account first.');
      await mem.written();
      return { ok: true, value: mem.store.search(checked.value) };
    },

    async exportConversation(agentId, sessionId, format) {
      const invalid = checkConversationIds(agentId, sessionId);
      if (invalid) return { ok: false, error: invalid };
      if (format !== 'markdown' && format !== 'json') {
        return fail('invalid_argument', 'Export as "markdown" or "json".');
      }
      const opened = await conversation(agentId, sessionId, WHOLE_HISTORY);
      if (!opened.ok) return opened;
      const subject = {
        agentId,
        conversationId: sessionId,
        title: opened.value.title,
        history: opened.value,
      };
      return { ok: true, value: format === 'json' ? exportJson(subject, now()) : exportMarkdown(subject) };
    },

    async saveAttachmentThumbnails(agentId, sessionId, turnId, thumbnails) {
      const invalid = checkConversationIds(agentId, sessionId) ?? checkId(turnId, 'turn');
      if (invalid) return { ok: false, error: invalid };
      const checked = checkThumbnails(thumbnails);
      if (!checked.ok) return checked;
      const mem = memory();
      if (!mem) return fail('signed_out', 'Choose an account first.');
      mem.store.setThumbnails(sessionId, turnId, checked.value);
      return { ok: true, value: undefined };
    },

    async getMemoryInfo() {
      const mem = memory();
      if (!mem) return fail('signed_out', 'Choose an account first.');
      return {
        ok: true,
        value: {
          path: mem.store.file,
          ...mem.store.lists.counts(),
          indexing: mem.indexing,
          ...(mem.setAside ? { setAside: mem.setAside } : {}),
          ...(mem.diskFull ? { diskFull: mem.diskFull } : {}),
        },
      };
    },

    async clearMemory() {
      const mem = memory();
      if (!mem) return fail('signed_out', 'Choose an account first.');
      mem.stopIndexing();
      // What the writer thread still writes (an opened history, a long reply) would come back after the clearing.
      await mem.store.threadWritesDone();
      mem.recorder.discard();
      mem.store.clear();
      return bridge.getMemoryInfo();
    },

    onConnectivity(listener) {
      return connectivity.on(listener);
    },

    onMemoryNotice: notices.onMemoryNotice,
    dismissMemoryNotice: notices.dismissMemoryNotice,
  };

  return {
    bridge,
    observe(agentId, sessionId, event) {
      try {
        memory()?.recorder.observe(agentId, sessionId, event);
      } catch (error) {
        logger.error('An event could not be recorded.', error);
      }
    },
    noteSent(agentId, sessionId, input, turnId) {
      try {
        memory()?.recorder.noteSent(agentId, sessionId, {
          turnId,
          content: input.content,
          attachments: (input.attachments ?? []).map(describeAttachment),
        });
      } catch (error) {
        logger.error('A sent message could not be recorded.', error);
      }
    },
    offlineAnswer,
    rememberAgents(answer) {
      connectivity.note(answer);
      const mem = memory();
      if (!mem) return answer;
      if (answer.ok) mem.store.lists.saveSnapshot(AGENTS_KEY, answer.value);
      if (answer.ok || !isUnreachable(answer)) return answer;
      const stored = mem.store.lists.snapshot<AgentList>(AGENTS_KEY);
      return stored ? { ok: true, value: stored } : answer;
    },
    noteTitle(agentId, sessionId, title) {
      memory()?.store.saveConversation(agentId, sessionId, { title });
    },
    noteRewound(sessionId, keep, at) {
      try {
        const mem = memory();
        // The recorder may still hold those turns (waiting for the writer thread): they go from both.
        if (mem) mem.recorder.forgetFrom(sessionId, mem.store.forgetTurnsFrom(sessionId, keep, at));
      } catch (error) {
        logger.error('The turns of a rewound conversation could not be forgotten.', error);
      }
    },
    rememberConversations(agentId, answer) {
      connectivity.note(answer);
      const mem = memory();
      if (!mem) return answer;
      if (answer.ok) {
        if (mem.store.lists.saveConversations(agentId, answer.value).length > 0) mem.indexSoon();
        return answer;
      }
      if (!isUnreachable(answer)) return answer;
      return { ok: true, value: mem.store.lists.conversations(agentId) };
    },
    forget(profileId) {
      if (open?.profileId === profileId) {
        open.destroy();
        open = null;
      } else {
        removeProfileMemory(dataDir, profileId);
      }
    },
    close() {
      connectivity.close();
      return close();
    },
  };
}
