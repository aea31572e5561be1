import { create } from 'zustand';
import type { SearchHit } from '../../shared/bridge';
import { desk } from '../desk';
import { errorWords } from '../error-words';
import { useConversationsStore } from './conversations-store';
import { useScreenStore } from './screen-store';

export interface SearchFilters {
  agentId: string;
  /** Day bounds as typed in date inputs (YYYY-MM-DD), empty when unset. */
  from: string;
  to: string;
}

interface SearchStore {
  open: boolean;
  text: string;
  filters: SearchFilters;
  hits: SearchHit[];
  status: 'idle' | 'searching' | 'ready' | 'error';
  error: string;
  /** The message a chosen result points at; the thread scrolls to it and highlights it. */
  target: { sessionId: string; position: number } | null;
  show(): void;
  hide(): void;
  setText(text: string): void;
  setFilters(change: Partial<SearchFilters>): void;
  search(): Promise<void>;
  setTarget(target: SearchStore['target']): void;
}

const DAY_MS = 86_400_000;
let asked = 0;

/** Search across every stored conversation of every agent (issue 17); the host answers from SQLite FTS5. */
export const useSearchStore = create<SearchStore>((set, get) => ({
  open: false,
  text: '',
  filters: { agentId: '', from: '', to: '' },
  hits: [],
  status: 'idle',
  error: '',
  target: null,
  // The palette opens empty: the last query (and its hits) belonged to an earlier errand.
  show: () => set({ open: true, text: '', hits: [], status: 'idle', error: '' }),
  hide: () => set({ open: false }),
  setText(text) {
    set({ text });
    void get().search();
  },
  setFilters(change) {
    set({ filters: { ...get().filters, ...change } });
    void get().search();
  },
  async search() {
    const { text, filters } = get();
    const ticket = ++asked;
    if (text.trim() === '') return set({ hits: [], status: 'idle', error: '' });
    set({ status: 'searching' });
    const from = filters.from ? Date.parse(`${filters.from}T00:00:00`) : undefined;
    const to = filters.to ? Date.parse(`${filters.to}T00:00:00`) + DAY_MS - 1 : undefined;
    const result = await desk().searchConversations({
      text,
      ...(filters.agentId ? { agentId: filters.agentId } : {}),
      ...(from !== undefined && !Number.isNaN(from) ? { from } : {}),
      ...(to !== undefined && !Number.isNaN(to) ? { to } : {}),
    });
    if (ticket !== asked) return; // a newer query is on its way
    if (result.ok) set({ hits: result.value, status: 'ready', error: '' });
    else set({ hits: [], status: 'error', error: errorWords(result.error) });
  },
  setTarget: (target) => set({ target }),
}));

// The highlight belongs to the visit the search opened: leaving the conversation or the chat ends it.
const dropTargetWhenLeft = () => {
  const target = useSearchStore.getState().target;
  if (!target) return;
  const here = useConversationsStore.getState().selectedId;
  if (here !== target.sessionId || useScreenStore.getState().screen !== 'chat') {
    useSearchStore.setState({ target: null });
  }
};
useConversationsStore.subscribe((now, before) => {
  if (now.selectedId !== before.selectedId) dropTargetWhenLeft();
});
useScreenStore.subscribe((now, before) => {
  if (now.screen !== before.screen) dropTargetWhenLeft();
});
