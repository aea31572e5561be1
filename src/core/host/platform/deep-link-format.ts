/** Where a deep link leads: an agent, or one of its conversations. */
export interface DeepLinkTarget {
  agentId: string;
  sessionId?: string;
}

export const DEEP_LINK_SCHEME = 'agentdesk';

/** The copyable link for an agent or one of its conversations (parsed back by src/main/deep-links.ts). */
export function formatDeepLink(target: DeepLinkTarget): string {
  const agent = `${DEEP_LINK_SCHEME}://agent/${encodeURIComponent(target.agentId)}`;
  return target.sessionId === undefined
    ? agent
    : `${agent}/conversation/${encodeURIComponent(target.sessionId)}`;
}
