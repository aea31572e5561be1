import { useEffect, useMemo, useRef, useState } from 'react';
import { useAgentConfigStore, type AgentConfigSection } from '../../stores/agent-config-store';
import { rebaseEdits } from './rebase-edits';

/**
 * A section's edits kept apart from what the server holds: `dirty` feeds the unsaved-changes guard,
 * and a fresh server value (after a save or a reload) replaces the draft. With `keepEdits`, a value
 * that arrives while the person is editing keeps their edits on top instead (a section whose parts load
 * one after the other: a tick made before the last part came must not be undone by its coming).
 */
export function useDraft<T>(section: AgentConfigSection, loaded: T, options: { keepEdits?: boolean } = {}) {
  const key = JSON.stringify(loaded);
  const [draft, setDraft] = useState<T>(loaded);
  const before = useRef(loaded);
  useEffect(() => {
    const from = before.current;
    before.current = loaded;
    setDraft((current) => (options.keepEdits ? rebaseEdits(from, current, loaded) : loaded));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the key stands for `loaded`
  }, [key]);
  const dirty = useMemo(() => JSON.stringify(draft) !== key, [draft, key]);
  useEffect(() => {
    useAgentConfigStore.getState().setDirty(section, dirty);
  }, [section, dirty]);
  useEffect(() => () => useAgentConfigStore.getState().setDirty(section, false), [section]);
  return { draft, setDraft, dirty, reset: () => setDraft(loaded) };
}
