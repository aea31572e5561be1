import './welcome.css';
import type { ReactNode } from 'react';
import { useAgentsStore } from '../../stores/agents-store';
import { useConversationsStore } from '../../stores/conversations-store';
import { engineWords, modelLabel } from '../../model/agent-words';
import { sendMessage } from './chat-actions';
import { WelcomeMessageBox } from './WelcomeMessageBox';

/**
 * The first thing a person sees with an agent: its name, what runs it, its starters, and a clear way
 * to begin. With `sessionId` it greets inside an empty conversation; without, it offers a new one.
 * `offer`: what another feature puts under the greeting (the welcome's "Use your own model").
 */
export function AgentWelcome(props: { agentId: string; sessionId?: string; offer?: ReactNode }) {
  const { agentId, sessionId } = props;
  const agent = useAgentsStore((s) => s.agents.find((a) => a.id === agentId));
  const config = useAgentsStore((s) => s.configs[agentId]);
  const starters = config?.starters ?? [];
  const name = agent?.name ?? 'your agent';
  const model = modelLabel(config);
  const Heading = sessionId ? 'h3' : 'h2';

  const begin = async (text?: string) => {
    const target = sessionId ?? (await useConversationsStore.getState().create(agentId));
    if (target && text) await sendMessage(agentId, target, { content: text, attachments: [] });
  };

  return (
    <div className="welcome" role="region" aria-label={`Welcome to ${name}`}>
      <div className="welcome-avatar" aria-hidden="true">
        {name.slice(0, 1).toUpperCase()}
      </div>
      {/* Inside a conversation the conversation's title is the h2. */}
      <Heading className="welcome-title">Chat with {name}</Heading>
      {config?.engine || model ? (
        <p className="muted welcome-meta">
          {[config?.engine && engineWords(config, config.engine).name, model && `model ${model}`]
            .filter(Boolean)
            .join(', ')}
        </p>
      ) : null}
      {props.offer}
      {starters.length > 0 ? (
        <>
          <p className="muted">Try one of these, or write your own below.</p>
          <ul className="starters" aria-label="Suggestions">
            {starters.map((starter) => (
              <li key={starter}>
                <button type="button" className="chip" onClick={() => void begin(starter)}>
                  {starter}
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="muted">
          {sessionId ? 'Write your first message below.' : 'Ask anything to get started.'}
        </p>
      )}
      {sessionId ? null : (
        <>
          <WelcomeMessageBox agentId={agentId} agentName={name} />
          <button type="button" className="link welcome-new" onClick={() => void begin()}>
            New conversation
          </button>
        </>
      )}
    </div>
  );
}
