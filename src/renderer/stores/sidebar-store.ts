import { create } from 'zustand';
import { desk } from '../desk';

interface SidebarStore {
  /** Folded to a narrow rail, so the chat takes the width; kept in ui-state.json like the width. */
  collapsed: boolean;
  /** Reads the remembered state, unless the person already folded or unfolded it meanwhile. */
  load(): Promise<void>;
  setCollapsed(collapsed: boolean): void;
  toggle(): void;
}

let changedByPerson = false;

export const useSidebarStore = create<SidebarStore>((set, get) => ({
  collapsed: false,
  async load() {
    const result = await desk().getUiState();
    if (result.ok && !changedByPerson) set({ collapsed: result.value.sidebarCollapsed });
  },
  setCollapsed(collapsed) {
    changedByPerson = true;
    if (collapsed === get().collapsed) return;
    set({ collapsed });
    void desk().saveUiState({ sidebarCollapsed: collapsed });
  },
  toggle() {
    get().setCollapsed(!get().collapsed);
  },
}));
