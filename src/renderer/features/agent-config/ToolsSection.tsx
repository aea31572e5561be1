import { useEffect, useState } from 'react';
import { ToolChannel, type AgentConfiguration } from '../../../shared/api';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';
import { SaveOutcome } from './SaveOutcome';
import { SectionForm } from './SectionForm';
import { SectionFrame } from './SectionFrame';
import { channelLabel, noMachineReason, toolWords } from './agent-config-words';
import { ToggleList } from './ToggleList';
import { useDraft } from './use-draft';
import { usePatchSave } from './use-patch-save';

type Toggles = Record<string, boolean>;
interface ToolsDraft {
  gs: Toggles;
  extensions: Toggles;
  channels: Record<string, Toggles>;
}

/** Only what differs from `before`, so the PATCH is as narrow as the change. */
const changes = (before: Toggles, after: Toggles): Toggles =>
  Object.fromEntries(Object.entries(after).filter(([k, v]) => before[k] !== v));

/**
 * The service's tools (gs), the agent's built-in tools (extensions, from `?full=1`, which wakes it) and the
 * effective per-channel matrix, where a cell is vetoed (off) or returned to its default (on).
 */
export function ToolsSection(props: { agentId: string; config: AgentConfiguration }) {
  const { agentId, config } = props;
  const machine = config.hasMachine !== false;
  const [extensions, setExtensions] = useState<AgentConfiguration['extensions'] | 'loading' | string>(
    machine ? 'loading' : [],
  );
  useEffect(() => {
    if (!machine) return;
    let live = true;
    void desk()
      .getAgentConfig(agentId, { full: '1' })
      .then((r) => live && setExtensions(r.ok ? (r.value.extensions ?? []) : errorWords(r.error)));
    return () => {
      live = false;
    };
  }, [agentId, machine, config.tools]);

  const loaded: ToolsDraft = {
    gs: { ...config.tools?.gs },
    extensions: Array.isArray(extensions)
      ? Object.fromEntries(extensions.map((e) => [e.name, e.enabled]))
      : {},
    channels: Object.fromEntries(ToolChannel.options.map((c) => [c, { ...config.tools?.channels?.[c] }])),
  };
  // The built-in tools come later than the rest (asking for them wakes the agent): a tick made meanwhile stays.
  const { draft, setDraft, dirty, reset } = useDraft('tools', loaded, { keepEdits: true });
  const { saving, save: savePatch, problemText } = usePatchSave('tools');
  const toolNames = [
    ...new Set([...Object.keys(draft.gs), ...Object.values(draft.channels).flatMap((t) => Object.keys(t))]),
  ].sort();

  const save = () => {
    const gs = changes(loaded.gs, draft.gs);
    const ext = changes(loaded.extensions, draft.extensions);
    const channels = Object.fromEntries(
      ToolChannel.options
        .map((c) => [c, changes(loaded.channels[c] ?? {}, draft.channels[c] ?? {})] as const)
        .filter(([, t]) => Object.keys(t).length > 0),
    );
    const tools = {
      ...(Object.keys(gs).length ? { gs } : {}),
      ...(Object.keys(ext).length ? { extensions: ext } : {}),
      ...(Object.keys(channels).length ? { channels } : {}),
    };
    void savePatch({ tools });
  };

  return (
    <SectionFrame section="tools" about="What the agent may use, overall and per channel.">
      <SectionForm
        saveLabel="Save tools"
        dirty={dirty}
        saving={saving}
        problem={problemText}
        onSave={save}
        onDiscard={reset}
      >
        <fieldset className="studio-toggles">
          <legend>Tools from your account</legend>
          {Object.keys(draft.gs).length === 0 ? (
            <p className="muted">Your account offers no tools to this agent.</p>
          ) : null}
          <ToggleList
            values={draft.gs}
            onChange={(gs) => setDraft({ ...draft, gs })}
            label={(tool, on) => <ToolLabel words={toolWords(config, tool)} off={!on} />}
          />
        </fieldset>

        <fieldset className="studio-toggles">
          <legend>The agent&apos;s built-in tools</legend>
          {!machine ? (
            <p className="muted">{noMachineReason(config)}</p>
          ) : extensions === 'loading' ? (
            <p className="muted">Starting the agent to read its built-in tools…</p>
          ) : typeof extensions === 'string' ? (
            <p className="error-text">{extensions}</p>
          ) : (
            <>
              <p className="studio-warning">
                Changing one restarts the agent; replies in progress are interrupted.
              </p>
              <ToggleList
                values={draft.extensions}
                onChange={(extensions) => setDraft({ ...draft, extensions })}
                label={(name, on) => <ToolLabel words={toolWords(config, name)} off={!on} />}
              />
            </>
          )}
        </fieldset>

        <table className="studio-matrix">
          <caption>
            Where each tool can be used. Untick to turn a tool off in one place; tick to turn it back on.
          </caption>
          <thead>
            <tr>
              <th scope="col">Tool</th>
              {ToolChannel.options.map((c) => (
                <th key={c} scope="col">
                  {channelLabel(c)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {toolNames.map((tool) => (
              <tr key={tool}>
                <th scope="row">{toolWords(config, tool).label}</th>
                {ToolChannel.options.map((c) => (
                  <td key={c}>
                    <input
                      type="checkbox"
                      aria-label={`${toolWords(config, tool).label} on ${channelLabel(c)}`}
                      checked={draft.channels[c]?.[tool] === true}
                      onChange={(e) =>
                        setDraft({
                          ...draft,
                          channels: {
                            ...draft.channels,
                            [c]: { ...draft.channels[c], [tool]: e.target.checked },
                          },
                        })
                      }
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </SectionForm>
      <SaveOutcome section="tools" />
    </SectionFrame>
  );
}

/** A tool's name with its one line, and "off" when it is. */
function ToolLabel(props: { words: { label: string; description: string }; off: boolean }) {
  return (
    <span>
      {props.words.label} {props.off ? <span className="studio-tag">off</span> : null}
      <span className="muted"> — {props.words.description}</span>
    </span>
  );
}
