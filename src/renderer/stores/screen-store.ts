import { create } from 'zustand';

/** The person-level screens beside the chat. `chat` is the agents, conversations and thread. */
export type Screen = 'chat' | 'library' | 'connectors' | 'account' | 'settings';

interface ScreenStore {
  screen: Screen;
  show(screen: Screen): void;
}

export const useScreenStore = create<ScreenStore>((set) => ({
  screen: 'chat',
  show(screen) {
    set({ screen });
  },
}));
