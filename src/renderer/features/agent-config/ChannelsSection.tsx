import { ChannelName, type AgentConfiguration } from '../../../shared/api';
import { SaveOutcome } from './SaveOutcome';
import { SectionForm } from './SectionForm';
import { SectionFrame } from './SectionFrame';
import { channelWords } from './agent-config-words';
import { ToggleList } from './ToggleList';
import { useDraft } from './use-draft';
import { usePatchSave } from './use-patch-save';

type ChannelKey = (typeof ChannelName.options)[number];

/** Where the agent answers, whether it may search the web, and whether it answers the connected page. */
export function ChannelsSection(props: { config: AgentConfiguration }) {
  const { config } = props;
  const loaded = {
    channels: Object.fromEntries(
      ChannelName.options.map((c) => [c, config.channels?.[c] === true]),
    ) as Record<ChannelKey, boolean>,
    webSearch: config.webSearch === true,
  };
  const { draft, setDraft, dirty, reset } = useDraft('channels', loaded);
  const { saving, save: savePatch, problemText } = usePatchSave('channels');

  const save = () => {
    const changed = ChannelName.options.filter((c) => draft.channels[c] !== loaded.channels[c]);
    const patch = {
      ...(changed.length ? { channels: Object.fromEntries(changed.map((c) => [c, draft.channels[c]])) } : {}),
      ...(draft.webSearch !== loaded.webSearch ? { webSearch: draft.webSearch } : {}),
    };
    void savePatch(patch);
  };

  return (
    <SectionFrame section="channels" about="Where people can reach this agent, and what it may look up.">
      <SectionForm
        saveLabel="Save channels"
        dirty={dirty}
        saving={saving}
        problem={problemText}
        onSave={save}
        onDiscard={reset}
      >
        <fieldset className="studio-toggles">
          <legend>Channels</legend>
          <ToggleList
            values={draft.channels}
            onChange={(channels) => setDraft({ ...draft, channels })}
            label={(channel) => (
              <span>
                {channelWords[channel]?.label ?? channel}
                <span className="muted"> — {channelWords[channel]?.description}</span>
              </span>
            )}
          />
        </fieldset>
        <label className="studio-toggle-line">
          <input
            type="checkbox"
            checked={draft.webSearch}
            onChange={(e) => setDraft({ ...draft, webSearch: e.target.checked })}
          />
          Web search — the agent may search the web while it answers
        </label>
        <p className="studio-help" aria-label="Connected page">
          Connected page:{' '}
          {config.msgapp2Page
            ? 'this agent answers the messages of the connected page.'
            : 'this agent does not answer the connected page.'}{' '}
          Which page is connected is chosen where the page is managed, not here.
        </p>
      </SectionForm>
      <SaveOutcome section="channels" />
    </SectionFrame>
  );
}
