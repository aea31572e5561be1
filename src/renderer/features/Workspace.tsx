import { useCallback, useEffect, useState } from 'react';
import type { PlatformInfo } from '../../shared/bridge';
import { desk } from '../desk';
import { useAgentsStore } from '../stores/agents-store';
import { useConversationsStore } from '../stores/conversations-store';
import { useTurnStreamStore } from '../stores/turn-stream-store';
import { AgentsList } from './agents/AgentsList';
import { unwatchAll } from './chat/chat-actions';
import { ChatView } from './chat/ChatView';
import { SkipToComposer } from './chat/SkipToComposer';
import { SearchPalette } from './search/SearchPalette';
import { attachFiles } from './chat/Composer';
import { WindowDropTarget } from '../ui/WindowDropTarget';
import { ConversationList } from './conversations/ConversationList';
import { ArchiveUndo } from './conversations/ArchiveUndo';
import { useArchiveStore } from '../stores/archive-store';
import { useListRefresh } from './conversations/use-list-refresh';
import { useShortcuts } from './shortcuts/use-shortcuts';
import { AgentConfigSidebarEntry } from './agents/AgentConfigSidebarEntry';
import { useAgentConfigStore } from '../stores/agent-config-store';
import { SyncSidebarEntry } from './sync/SyncSidebarEntry';
import { useSyncStore } from '../stores/sync-store';
import { useScreenStore } from '../stores/screen-store';
import { useSchedulesStore } from '../stores/schedules-store';
import { AllowanceBanner } from './account/AllowanceBanner';
import { SidebarFooter } from './account/SidebarFooter';
import { usePersonSetup } from './account/use-person-setup';
import { AgentWelcome } from './chat/AgentWelcome';
import { ComposerTools } from './ComposerTools';
import { PersonScreen } from './PersonScreen';
import { OwnModelOffer } from './models/OwnModelOffer';
import { useModelsStore } from '../stores/models-store';
import { CopyLinkButton } from '../ui/CopyLinkButton';
import { SidebarResizer } from './shell/SidebarResizer';
import { SidebarRail, SidebarToggle, useSidebarMemory } from './shell/SidebarCollapse';
import { startConversation } from './conversations/show-conversation';
import { UpdateBanner } from './shell/UpdateBanner';
import { useWindowMemory } from './shell/use-window-memory';
import { lazyPart, PartLoading, WhenLoaded } from '../ui/lazy-part';
import './shell/sidebar.css';
import './shell/shell.css';
import { OfflineBanner } from './chat/OfflineBanner';
import { MemoryBanner } from './memory/MemoryBanner';

// What the first screen does not show loads the first time it does (each its own chunk).
const AgentConfigScreen = lazyPart(() =>
  import('./agent-config/AgentConfigScreen').then((m) => m.AgentConfigScreen),
);
const SyncPanel = lazyPart(() => import('./sync/SyncPanel').then((m) => m.SyncPanel));
const SchedulePanel = lazyPart(() => import('./schedules/SchedulePanel').then((m) => m.SchedulePanel));

/** The signed-in app: agents and conversations on the left, the chat on the right. */
export function Workspace() {
  const agentId = useAgentsStore((s) => s.selectedAgentId);
  const sessionId = useConversationsStore((s) => s.selectedId);
  const list = useConversationsStore((s) => (agentId ? s.byAgent[agentId] : undefined));
  const starting = useConversationsStore((s) => s.starting !== null);
  const noMachine = useAgentsStore((s) => (agentId ? s.noMachine[agentId] : undefined));
  const agentName = useAgentsStore((s) => s.agents.find((a) => a.id === agentId)?.name);
  const syncPanelOpen = useSyncStore((s) => !!agentId && s.panelAgentId === agentId);
  const agentConfigOpen = useAgentConfigStore((s) => !!agentId && s.agentId === agentId);
  const [platform, setPlatform] = useState<PlatformInfo | null>(null);
  const [dropProblems, setDropProblems] = useState<string[]>([]);
  const screen = useScreenStore((s) => s.screen);
  const chatShown =
    screen === 'chat' &&
    !agentConfigOpen &&
    !syncPanelOpen &&
    !!agentId &&
    !!sessionId &&
    noMachine === undefined;
  const schedulesOpen = useSchedulesStore((s) => !!sessionId && s.panelSessionId === sessionId);
  usePersonSetup();
  const collapsed = useSidebarMemory();
  const isMac = platform?.os === 'mac';

  useEffect(() => {
    void useAgentsStore.getState().load();
    void desk()
      .getPlatform()
      .then((result) => result.ok && setPlatform(result.value));
  }, []);
  useShortcuts(platform?.os === 'mac');

  // A new agent: its conversations, its starters, and streams of the old one closed.
  useEffect(() => {
    if (!agentId) return;
    unwatchAll();
    useConversationsStore.getState().select(null);
    void useConversationsStore.getState().load(agentId);
    void useAgentsStore.getState().loadConfig(agentId);
  }, [agentId]);

  // Open the most recent conversation once the list is in (not while a new one is being made).
  useEffect(() => {
    if (!sessionId && !starting && list?.status === 'ready' && list.items[0])
      useConversationsStore.getState().select(list.items[0].id, true);
  }, [sessionId, starting, list]);
  // After the default choice above, so the remembered agent and conversation win.
  useWindowMemory(agentId, sessionId);
  useListRefresh(agentId);

  useEffect(
    () => () => {
      void useArchiveStore.getState().flush();
      unwatchAll();
      useTurnStreamStore.getState().reset();
      useConversationsStore.getState().reset();
      useModelsStore.getState().reset();
    },
    [],
  );

  const onFiles = useCallback(
    (files: File[]) => {
      if (sessionId) void attachFiles(sessionId, files).then(setDropProblems);
    },
    [sessionId],
  );

  return (
    <div className={collapsed ? 'app-shell sidebar-collapsed' : 'app-shell'}>
      {screen === 'chat' && sessionId && !agentConfigOpen ? <SkipToComposer /> : null}
      {/* Folded, everything stays mounted (its stores keep following the agent) but only the rail shows. */}
      <aside className="sidebar" aria-label="Sidebar">
        <SidebarRail
          isMac={isMac}
          onNewConversation={
            agentId && noMachine === undefined ? () => startConversation(agentId) : undefined
          }
        />
        <div className="brand-row">
          <h1 className="brand">AgentDesk</h1>
          <SidebarToggle isMac={isMac} hide />
        </div>
        <AgentsList />
        {agentId ? <AgentConfigSidebarEntry agentId={agentId} /> : null}
        {agentId ? <CopyLinkButton agentId={agentId} label="Copy agent link" /> : null}
        {agentId ? <SyncSidebarEntry agentId={agentId} /> : null}
        {agentId ? <ConversationList agentId={agentId} /> : null}
        <SidebarFooter />
        <SidebarResizer />
      </aside>
      <main className="content">
        <SearchPalette />
        <AllowanceBanner />
        <UpdateBanner />
        <MemoryBanner />
        {/* The open conversation says it in its own banner (with whether it reads the stored copy). */}
        {chatShown ? null : <OfflineBanner />}
        {dropProblems.length > 0 ? (
          <ul className="banner error-text" role="alert">
            {dropProblems.map((p, i) => (
              <li key={i}>{p}</li>
            ))}
          </ul>
        ) : null}
        {screen !== 'chat' ? (
          <PersonScreen screen={screen} />
        ) : agentId && agentConfigOpen ? (
          <WhenLoaded>
            <AgentConfigScreen agentId={agentId} />
          </WhenLoaded>
        ) : agentId && syncPanelOpen ? (
          <WhenLoaded>
            <SyncPanel agentId={agentId} />
          </WhenLoaded>
        ) : agentId && sessionId && noMachine === undefined ? (
          <div className="chat-with-panel">
            <ChatView
              key={`${agentId}:${sessionId}`}
              agentId={agentId}
              sessionId={sessionId}
              composerTools={ComposerTools}
            />
            {schedulesOpen ? (
              <WhenLoaded fallback={<SchedulePanelLoading />}>
                <SchedulePanel agentId={agentId} sessionId={sessionId} />
              </WhenLoaded>
            ) : null}
          </div>
        ) : agentId && noMachine === undefined ? (
          <AgentWelcome
            agentId={agentId}
            offer={<OwnModelOffer agentId={agentId} agentName={agentName ?? 'Your agent'} />}
          />
        ) : (
          <p className="empty-state">
            {noMachine !== undefined
              ? 'Pick another agent to chat: this one has no conversations.'
              : 'Pick an agent.'}
          </p>
        )}
        <WindowDropTarget onFiles={sessionId && screen === 'chat' ? onFiles : undefined}>
          Drop files to attach them
        </WindowDropTarget>
        {/* Last, so its Undo takes the focus after the next conversation's message box did; shown first
            (CSS order), in the flow, so it covers none of the reply's buttons. */}
        <ArchiveUndo />
      </main>
    </div>
  );
}

/** The schedule panel's frame while its chunk loads, so the chat does not widen and narrow again. */
function SchedulePanelLoading() {
  return (
    <section className="schedule-panel" aria-label="Scheduled messages" aria-busy="true">
      <PartLoading />
    </section>
  );
}
