import { useState } from 'react';
import { LIMITS, type AgentConfiguration, type AgentConfigPatch } from '../../../shared/api';
import { problemAt } from '../../model/form-problems';
import { FieldProblem, SaveOutcome } from './SaveOutcome';
import { SectionForm } from './SectionForm';
import { SectionFrame } from './SectionFrame';
import { useDraft } from './use-draft';
import { usePatchSave } from './use-patch-save';

interface IdentityDraft {
  name: string;
  prompt: string;
  promptMode: 'append' | 'replace';
  starters: string[];
}

/** Name, prompt (with its live count and mode) and the start suggestions, reorderable. */
export function IdentitySection(props: { config: AgentConfiguration }) {
  const { config } = props;
  const machine = config.hasMachine !== false;
  const loaded: IdentityDraft = {
    name: config.name ?? '',
    prompt: config.prompt ?? '',
    promptMode: config.promptMode ?? 'append',
    starters: config.starters ?? [],
  };
  const { draft, setDraft, dirty, reset } = useDraft('identity', loaded);
  const { saving, problems, save: savePatch } = usePatchSave('identity');
  const [promptSaved, setPromptSaved] = useState(false);
  const [startersNote, setStartersNote] = useState('');
  // An empty starter would be an empty chip: it is left out, and the row says so before saving.
  const starters = draft.starters.map((s) => s.trim()).filter(Boolean);
  const leftOut = draft.starters.length - starters.length;

  const patch: AgentConfigPatch = {
    ...(draft.name !== loaded.name ? { name: draft.name } : {}),
    ...(draft.prompt !== loaded.prompt ? { prompt: draft.prompt } : {}),
    ...(machine && draft.promptMode !== loaded.promptMode ? { promptMode: draft.promptMode } : {}),
    ...(JSON.stringify(starters) !== JSON.stringify(loaded.starters) ? { starters } : {}),
  };

  const save = async () => {
    setStartersNote(
      leftOut ? `${leftOut === 1 ? 'An empty starter was' : `${leftOut} empty starters were`} left out.` : '',
    );
    if (Object.keys(patch).length === 0) return reset();
    const saved = await savePatch(patch);
    setPromptSaved(saved && (patch.prompt !== undefined || patch.promptMode !== undefined));
  };

  const setStarter = (index: number, text: string) =>
    setDraft({ ...draft, starters: draft.starters.map((s, i) => (i === index ? text : s)) });
  const move = (index: number, by: -1 | 1) => {
    const next = [...draft.starters];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item!);
    setDraft({ ...draft, starters: next });
  };

  const count = draft.prompt.length;
  return (
    <SectionFrame
      section="identity"
      about="Who the agent is: its name, its prompt and the suggestions an empty chat offers."
    >
      <SectionForm
        saveLabel="Save identity"
        dirty={dirty}
        saving={saving}
        onSave={() => void save()}
        onDiscard={reset}
      >
        <label htmlFor="studio-name">Name</label>
        <input
          id="studio-name"
          value={draft.name}
          maxLength={LIMITS.agentNameMax * 2}
          aria-describedby="studio-name-help studio-name-problem"
          aria-invalid={!!problems.name}
          onChange={(e) => setDraft({ ...draft, name: e.target.value })}
        />
        <p id="studio-name-help" className="studio-help">
          Up to {LIMITS.agentNameMax} characters ({draft.name.length} now).
        </p>
        <FieldProblem id="studio-name-problem" problem={problems.name} />

        <label htmlFor="studio-prompt">Prompt</label>
        <textarea
          id="studio-prompt"
          rows={10}
          value={draft.prompt}
          aria-describedby="studio-prompt-count studio-prompt-problem"
          aria-invalid={!!problems.prompt}
          onChange={(e) => setDraft({ ...draft, prompt: e.target.value })}
        />
        <p id="studio-prompt-count" className={`studio-help ${count > LIMITS.promptMax ? 'over' : ''}`}>
          {count.toLocaleString('en-US')} / {LIMITS.promptMax.toLocaleString('en-US')} characters
          {count > LIMITS.promptMax
            ? ` — ${(count - LIMITS.promptMax).toLocaleString('en-US')} too many`
            : ''}
        </p>
        <FieldProblem id="studio-prompt-problem" problem={problems.prompt} />
        <p className="studio-help">
          {machine
            ? 'A new prompt takes effect in the next conversation, and at once after a restart of the agent.'
            : 'A new prompt takes effect in the next conversation.'}
        </p>

        {machine ? (
          <fieldset className="studio-choice">
            <legend>How the prompt is used</legend>
            <label>
              <input
                type="radio"
                name="promptMode"
                checked={draft.promptMode === 'append'}
                onChange={() => setDraft({ ...draft, promptMode: 'append' })}
              />
              <span>
                <strong>Add to the built-in instructions</strong> — the agent keeps the service&apos;s own
                manners and guidance on its tools, and your prompt comes after them.
              </span>
            </label>
            <label>
              <input
                type="radio"
                name="promptMode"
                checked={draft.promptMode === 'replace'}
                onChange={() => setDraft({ ...draft, promptMode: 'replace' })}
              />
              <span>
                <strong>Replace them</strong> — the agent is only your prompt, nothing else.
              </span>
            </label>
          </fieldset>
        ) : (
          <p className="studio-help">
            This engine always adds your prompt to its built-in instructions; replacing them needs an engine
            with a workspace of its own.
          </p>
        )}

        <fieldset className="studio-starters">
          <legend>
            Starters ({draft.starters.length} of {LIMITS.startersMax})
          </legend>
          <p className="studio-help">
            Suggestions shown as chips in an empty chat, up to {LIMITS.starterMax} characters each, in this
            order.
          </p>
          <ol>
            {draft.starters.map((starter, index) => (
              <li key={index}>
                <div className="studio-starter-row">
                  <input
                    aria-label={`Starter ${index + 1}`}
                    value={starter}
                    aria-invalid={!!problems[`starters.${index}`]}
                    aria-describedby={starter.trim() ? undefined : `studio-starter-${index}-empty`}
                    onChange={(e) => setStarter(index, e.target.value)}
                  />
                  <span className={`studio-help ${starter.length > LIMITS.starterMax ? 'over' : ''}`}>
                    {starter.trim() ? (
                      `${starter.length}/${LIMITS.starterMax}`
                    ) : (
                      <span id={`studio-starter-${index}-empty`}>Empty: left out when you save</span>
                    )}
                  </span>
                  <button
                    type="button"
                    className="small"
                    aria-label={`Move starter ${index + 1} up`}
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="small"
                    aria-label={`Move starter ${index + 1} down`}
                    disabled={index === draft.starters.length - 1}
                    onClick={() => move(index, 1)}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="small"
                    aria-label={`Remove starter ${index + 1}`}
                    onClick={() =>
                      setDraft({ ...draft, starters: draft.starters.filter((_, i) => i !== index) })
                    }
                  >
                    Remove
                  </button>
                </div>
              </li>
            ))}
          </ol>
          <button
            type="button"
            disabled={draft.starters.length >= LIMITS.startersMax}
            onClick={() => setDraft({ ...draft, starters: [...draft.starters, ''] })}
          >
            Add a starter
          </button>
          <FieldProblem id="studio-starters-problem" problem={problemAt(problems, 'starters')} />
          {startersNote ? (
            <p className="studio-help" role="status">
              {startersNote}
            </p>
          ) : null}
        </fieldset>
      </SectionForm>
      <SaveOutcome section="identity" offerRestart={promptSaved && machine} />
    </SectionFrame>
  );
}
