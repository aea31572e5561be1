import { useEffect, useMemo, useState } from 'react';
import { useAgentConfigStore, type AgentConfigSection } from '../../stores/agent-config-store';

/**
 * A section's edits kept apart from what the server holds: `dirty` feeds the unsaved-changes guard,
 * and a fresh server value (after a save or a reload) replaces the draft.
 */
export function useDraft<T>(section: AgentConfigSection, loaded: T) {
  const key = JSON.stringify(loaded);
  const [draft, setDraft] = useState<T>(loaded);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the key stands for `loaded`
  useEffect(() => setDraft(loaded), [key]);
  const dirty = useMemo(() => JSON.stringify(draft) !== key, [draft, key]);
  useEffect(() => {
    useAgentConfigStore.getState().setDirty(section, dirty);
  }, [section, dirty]);
  useEffect(() => () => useAgentConfigStore.getState().setDirty(section, false), [section]);
  return { draft, setDraft, dirty, reset: () => setDraft(loaded) };
}
