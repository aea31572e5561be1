import { useState } from 'react';
import { AgentConfigPatch } from '../../../shared/api';
import { checkForm } from '../../model/form-problems';
import { useAgentConfigStore, type AgentConfigSection } from '../../stores/agent-config-store';

/**
 * Saves a section's PATCH after checking it with the service's own schema: a bad value never leaves
 * the app, and its problems come back keyed by field. Resolves true when the server saved it.
 */
export function usePatchSave(section: AgentConfigSection) {
  const [saving, setSaving] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const save = async (patch: AgentConfigPatch): Promise<boolean> => {
    const checked = checkForm(AgentConfigPatch, patch);
    if (!checked.ok) {
      setProblems(checked.problems);
      return false;
    }
    setProblems({});
    setSaving(true);
    const saved = await useAgentConfigStore.getState().save(section, checked.value);
    setSaving(false);
    return saved;
  };
  return { saving, problems, save, problemText: Object.values(problems).join(' ') };
}
