import { useEffect, useRef, type RefObject } from 'react';
import { desk } from '../../desk';
import { useAgentsStore } from '../../stores/agents-store';
import { useConversationsStore } from '../../stores/conversations-store';

/** Where to go: the place remembered from the last run, or one the shell asked for (a deep link). */
interface Wanted {
  agentId: string | null;
  sessionId: string | null;
  remembered?: boolean;
  /** Its agent was selected here; the agent's list is loading. */
  reached?: boolean;
}

/**
 * Reopens the last agent and conversation at start, remembers them as they change, and follows the
 * shell's commands (a deep link, the tray's "New conversation").
 */
export function useWindowMemory(agentId: string | null, sessionId: string | null): void {
  const wanted = useRef<Wanted | null>(null);
  // Nothing is saved before the remembered state is read, or the first default choice would replace it.
  const read = useRef(false);
  const agents = useAgentsStore((s) => s.agents);
  const list = useConversationsStore((s) => (agentId ? s.byAgent[agentId] : undefined));

  useEffect(() => {
    void desk()
      .getUiState()
      .then((result) => {
        read.current = true;
        // A deep link that came first still waits to be opened: it wins over the remembered place.
        if (result.ok && !wanted.current)
          wanted.current = {
            agentId: result.value.lastAgentId,
            sessionId: result.value.lastSessionId,
            remembered: true,
          };
        applyWanted(wanted);
      });
    return desk().onShellCommand((command) => {
      if (command.type === 'open') {
        const { agentId: wantedAgent, sessionId: wantedSession } = command.place;
        wanted.current = { agentId: wantedAgent, sessionId: wantedSession ?? null };
        // A conversation started elsewhere a moment ago (the quick chat window) is not in a list read before.
        const known = useConversationsStore.getState().byAgent[wantedAgent];
        if (wantedSession && known?.status === 'ready' && !known.items.some((c) => c.id === wantedSession)) {
          void useConversationsStore
            .getState()
            .refresh(wantedAgent)
            .then(() => applyWanted(wanted));
          return;
        }
      } else {
        const current = useAgentsStore.getState().selectedAgentId;
        if (current) void useConversationsStore.getState().create(current);
      }
      applyWanted(wanted);
    });
  }, []);

  // Once the agents are in, open the wanted agent; once its conversations are in, the wanted one.
  useEffect(() => applyWanted(wanted), [agents, agentId, list]);

  useEffect(() => {
    if (!read.current || wanted.current || !agentId) return;
    void desk().saveUiState({ lastAgentId: agentId, lastSessionId: sessionId });
  }, [agentId, sessionId]);
}

/** Opens the wanted place as far as what has loaded allows; done (or given up), it is forgotten. */
function applyWanted(wanted: RefObject<Wanted | null>): void {
  const want = wanted.current;
  if (!want) return;
  // The person started a conversation before the remembered place was read or reached (Mod+N right at
  // start): that wins, and opening the remembered one now would take the screen from it.
  const { starting, startedId } = useConversationsStore.getState();
  if (want.remembered && (starting || startedId)) {
    wanted.current = null;
    return;
  }
  const agentsState = useAgentsStore.getState();
  if (agentsState.status !== 'ready') return; // wait for the list
  if (want.agentId && agentsState.agents.some((a) => a.id === want.agentId)) {
    const selected = agentsState.selectedAgentId;
    // The person went elsewhere while the answers were on their way (a slow host): their choice wins, the
    // first agent too when they chose it. Only a place the app chose by itself (the first agent at start,
    // its newest conversation) is left for this one.
    const movedAway = want.reached
      ? selected !== want.agentId
      : want.remembered &&
        selected !== want.agentId &&
        (agentsState.chosenByPerson || selected !== agentsState.agents[0]?.id);
    if (movedAway) {
      wanted.current = null;
      return keepCurrentPlace();
    }
    if (selected !== want.agentId) {
      wanted.current = { ...want, reached: true };
      agentsState.select(want.agentId, true);
      return; // the list of the new agent loads first
    }
    const conversations = useConversationsStore.getState().byAgent[want.agentId];
    if (conversations?.status !== 'ready') return;
    const { selectedId } = useConversationsStore.getState();
    const chosenByPerson =
      want.remembered && selectedId !== null && selectedId !== conversations.items[0]?.id;
    if (chosenByPerson) keepCurrentPlace();
    else if (want.sessionId && conversations.items.some((c) => c.id === want.sessionId))
      useConversationsStore.getState().select(want.sessionId, true);
  }
  wanted.current = null;
}

/** Where the person went before the remembered place was read is the place to reopen next time. */
function keepCurrentPlace(): void {
  const lastAgentId = useAgentsStore.getState().selectedAgentId;
  if (lastAgentId)
    void desk().saveUiState({ lastAgentId, lastSessionId: useConversationsStore.getState().selectedId });
}
