import { useEffect, useState } from 'react';
import type { McpServerInput, McpServerStatus } from '../../../shared/api';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';
import { useServerOffers } from '../../ui/use-server-offers';

/** A saved server's state: still being checked, its answer, or why the check itself failed. */
export type McpCheck = 'checking' | McpServerStatus | { name: string; failed: string };

/**
 * Whether each saved MCP server answers (our extension `getAgentMcpStatus`), checked whenever the saved
 * list changes; null where the server does not offer it, so nothing is shown there.
 */
export function useMcpStatus(
  agentId: string,
  saved: readonly McpServerInput[] | null,
): Map<string, McpCheck> | null {
  const offered = useServerOffers('getAgentMcpStatus');
  const [states, setStates] = useState<Map<string, McpCheck>>(new Map());
  const key = JSON.stringify(saved);
  useEffect(() => {
    if (!offered || !saved) return;
    let live = true;
    setStates(new Map(saved.map((s) => [s.name, 'checking'])));
    void desk()
      .getMcpStatus(agentId)
      .then((result) => {
        if (!live) return;
        if (result.ok) setStates(new Map(result.value.map((s) => [s.name, s])));
        else
          setStates(new Map(saved.map((s) => [s.name, { name: s.name, failed: errorWords(result.error) }])));
      });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the key stands for `saved`
  }, [agentId, offered, key]);
  return offered ? states : null;
}
