import { create } from 'zustand';
import type { Schedule, ScheduleBody } from '../../shared/api';
import { desk } from '../desk';
import { errorWords } from '../error-words';

interface ConversationSchedules {
  status: 'loading' | 'ready' | 'error';
  items: Schedule[];
  error: string;
}

interface SchedulesStore {
  /** Conversation id -> its scheduled turns. */
  bySession: Record<string, ConversationSchedules>;
  /** The conversation whose schedule panel is open. */
  panelSessionId: string | null;
  openPanel(sessionId: string | null): void;
  load(agentId: string, sessionId: string): Promise<void>;
  /** Resolves to '' or the problem in plain words (the service's `detalle` for a refused body). */
  create(agentId: string, sessionId: string, body: ScheduleBody): Promise<string>;
  cancel(agentId: string, sessionId: string, id: string): Promise<string>;
}

const byDue = (a: Schedule, b: Schedule) => a.dueAt.localeCompare(b.dueAt);

export const useSchedulesStore = create<SchedulesStore>((set, get) => {
  const put = (sessionId: string, entry: ConversationSchedules) =>
    set({ bySession: { ...get().bySession, [sessionId]: entry } });
  return {
    bySession: {},
    panelSessionId: null,
    openPanel(sessionId) {
      set({ panelSessionId: sessionId });
    },
    async load(agentId, sessionId) {
      const before = get().bySession[sessionId];
      if (!before) put(sessionId, { status: 'loading', items: [], error: '' });
      const result = await desk().listSchedules(agentId, sessionId);
      if (!result.ok)
        return put(sessionId, {
          status: 'error',
          items: before?.items ?? [],
          error: errorWords(result.error),
        });
      put(sessionId, { status: 'ready', items: [...result.value].sort(byDue), error: '' });
    },
    async create(agentId, sessionId, body) {
      const result = await desk().createSchedule(agentId, sessionId, body);
      if (!result.ok) return errorWords(result.error);
      const items = get().bySession[sessionId]?.items ?? [];
      put(sessionId, { status: 'ready', items: [...items, result.value].sort(byDue), error: '' });
      return '';
    },
    async cancel(agentId, sessionId, id) {
      const result = await desk().deleteSchedule(agentId, sessionId, id);
      if (!result.ok) return errorWords(result.error);
      const items = get().bySession[sessionId]?.items ?? [];
      put(sessionId, { status: 'ready', items: items.filter((i) => i.id !== id), error: '' });
      return '';
    },
  };
});
