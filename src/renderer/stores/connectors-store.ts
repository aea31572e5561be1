import { create } from 'zustand';
import type { AccountConnector } from '../../shared/api';
import { desk } from '../desk';
import { errorWords } from '../error-words';

interface ConnectorsStore {
  connectors: AccountConnector[];
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string;
  /** A connector whose provider page was opened; the list is read again when the window regains focus. */
  waitingFor: string | null;
  load(): Promise<void>;
  connect(id: string): Promise<string>;
  disconnect(id: string): Promise<string>;
}

export const useConnectorsStore = create<ConnectorsStore>((set, get) => ({
  connectors: [],
  status: 'idle',
  error: '',
  waitingFor: null,
  async load() {
    if (get().status !== 'ready') set({ status: 'loading' });
    const result = await desk().listConnectors();
    if (!result.ok) return set({ status: 'error', error: errorWords(result.error) });
    const waiting = get().waitingFor;
    const done = waiting && result.value.find((c) => c.id === waiting)?.connected;
    set({
      connectors: result.value,
      status: 'ready',
      error: '',
      ...(done ? { waitingFor: null } : {}),
    });
  },
  async connect(id) {
    const result = await desk().connectConnector(id);
    if (!result.ok) return errorWords(result.error);
    set({ waitingFor: id });
    return '';
  },
  async disconnect(id) {
    const result = await desk().disconnectConnector(id);
    if (!result.ok) return errorWords(result.error);
    await get().load();
    return '';
  },
}));
