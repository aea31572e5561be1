import { useEffect, useState, type ReactElement, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useAgentsStore } from '../../stores/agents-store';
import { useConversationsStore } from '../../stores/conversations-store';
import { selectStream, useTurnStreamStore } from '../../stores/turn-stream-store';
import { chooseModel } from './chat-actions';
import { modelName } from '../../../shared/words/model-ids';
import { rememberedModel } from './chosen-model';

/**
 * The model the next reply will use, and the choice of another. It shows the person's latest choice
 * until the server's next `models` event speaks; "applies from the next reply" leaves once that reply starts.
 */
export function ModelPicker(props: { agentId: string; sessionId: string; noteLine?: HTMLElement | null }) {
  const { agentId, sessionId } = props;
  const streamModels = useTurnStreamStore((s) => selectStream(sessionId)(s).models);
  const chosen = useTurnStreamStore((s) => selectStream(sessionId)(s).chosenModel);
  const liveTurns = useTurnStreamStore((s) => Object.keys(selectStream(sessionId)(s).turns).join('\n'));
  // The picker is always there: the stream's `models`, else the last stored one, else the agent's configuration.
  const storedModels = useConversationsStore((s) => s.threads[sessionId]?.models);
  const configModels = useAgentsStore((s) => s.configs[agentId]?.models);
  const configModel = useAgentsStore((s) => s.configs[agentId]?.model);
  const [note, setNote] = useState<{ text: string; problem: boolean; known: ReadonlySet<string> } | null>(
    null,
  );

  // With no reply yet, the next one uses the agent's model of the moment: asked again when the conversation
  // opens (a reused draft too), as another client (the CLI, another window) may have changed it meanwhile.
  const fromConfig = !streamModels && !storedModels;
  useEffect(() => {
    if (fromConfig) void useAgentsStore.getState().loadConfig(agentId);
  }, [agentId, sessionId, fromConfig]);

  // A reply that started after the change has the new model: the note no longer applies. Named by its id, not
  // by a count: a history read takes finished turns off the live timeline, which a count would take for none.
  useEffect(() => {
    if (note && !note.problem && liveTurns.split('\n').some((id) => id && !note.known.has(id))) setNote(null);
  }, [note, liveTurns]);

  const models =
    streamModels ??
    storedModels ??
    (configModels?.length ? { options: configModels, current: configModel ?? null } : undefined);
  if (!models || models.options.length === 0) return null;
  const value = chosen ?? rememberedModel(sessionId) ?? models.current ?? '';
  const shown = models.options.find((option) => option.id === value);

  return (
    <>
      <label className="model-picker">
        <select
          aria-label="Model"
          title={`${shown ? `${modelName(shown)}: ` : ''}the model the next reply will use`}
          value={value}
          onChange={(event) => {
            const model = event.target.value;
            const stream = selectStream(sessionId)(useTurnStreamStore.getState());
            const known = new Set([...(stream.settled ?? []), ...Object.keys(stream.turns)]);
            void chooseModel(agentId, sessionId, model).then((problem) =>
              setNote({
                text: problem || 'The new model applies from the next reply.',
                problem: !!problem,
                known,
              }),
            );
          }}
        >
          {models.options.map((option) => (
            <option key={option.id} value={option.id}>
              {modelName(option)}
            </option>
          ))}
        </select>
      </label>
      {note
        ? placed(
            <p className={`header-note${note.problem ? ' error-text' : ''}`} role="status">
              {note.text}
            </p>,
            props.noteLine,
          )
        : null}
    </>
  );
}

/** On the line under the header when there is one, so the note pushes the messages down instead of covering them. */
function placed(note: ReactElement, line: HTMLElement | null | undefined): ReactNode {
  return line ? createPortal(note, line) : note;
}
