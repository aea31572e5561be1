import { useCallback, useEffect, useState } from 'react';
import type { SkillsResponse } from '../../../shared/api';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';
import { checkSkillMarkdown, skillFolderParts, skillSizeProblem, skillSlug } from '../../model/skill-folder';
import { useAgentConfigStore } from '../../stores/agent-config-store';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { DropZone } from './DropZone';
import { base64Of, filesFromPicker, type FolderFile } from './read-folder';
import { SaveOutcome } from './SaveOutcome';
import { SectionFrame } from './SectionFrame';
import { showDirectionControls } from '../../model/bidi-controls';

/** Installed skills, the community catalog, installing from it or from a folder, and removing. */
export function SkillsSection(props: { agentId: string }) {
  const { agentId } = props;
  const [skills, setSkills] = useState<SkillsResponse | null>(null);
  const [loadError, setLoadError] = useState('');
  const [busy, setBusy] = useState('');
  const [removing, setRemoving] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    const result = await desk().listSkills(agentId);
    if (result.ok) setSkills(result.value);
    else {
      setLoadError(errorWords(result.error));
      useAgentConfigStore.getState().noteError('skills', result.error);
    }
  }, [agentId]);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const tell = (kind: 'saved' | 'failed', message: string, note?: string) =>
    useAgentConfigStore
      .getState()
      .setOutcome({ section: 'skills', kind, message, ...(note ? { note } : {}) });

  const installFromCatalog = async (slug: string) => {
    setBusy(slug);
    const result = await desk().installSkill(agentId, slug, { fromCatalog: true });
    setBusy('');
    if (!result.ok) return useAgentConfigStore.getState().noteError('skills', result.error);
    tell('saved', `Installed ${result.value.slug} (${result.value.files.length} files).`, result.value.note);
    await refresh();
  };

  // Everything is checked before a byte is read whole or sent: size, SKILL.md, its frontmatter, the name.
  const installFolder = async (picked: FolderFile[]) => {
    if (picked.length === 0) return;
    const parts = skillFolderParts(picked.map((p) => p.path));
    const inside = (p: FolderFile) =>
      p.path.startsWith(`${parts.root}/`) ? p.path.slice(parts.root.length + 1) : p.path;
    const tooBig = skillSizeProblem(picked.map((p) => ({ path: inside(p), size: p.file.size })));
    if (tooBig) return tell('failed', tooBig);
    const skillMd = picked.find((p) => inside(p) === 'SKILL.md');
    if (!skillMd)
      return tell('failed', `"${parts.root}" has no SKILL.md at its top level, so it is not a skill folder.`);
    const markdown = await skillMd.file.text();
    const checked = checkSkillMarkdown(markdown);
    if (!checked.ok) return tell('failed', checked.problem);
    const { slug, problem } = skillSlug(checked.name, parts.root);
    if (problem) return tell('failed', problem);
    setBusy(slug);
    const assets = await Promise.all(
      picked
        .filter((p) => p !== skillMd)
        .map(async (p) => ({ name: inside(p), contentBase64: await base64Of(p.file) })),
    );
    const result = await desk().installSkill(agentId, slug, { markdown, assets });
    setBusy('');
    if (!result.ok) return useAgentConfigStore.getState().noteError('skills', result.error);
    tell(
      'saved',
      `Installed ${result.value.slug}: ${result.value.files.length} files, ${result.value.bytes.toLocaleString('en-US')} bytes.`,
      result.value.note,
    );
    await refresh();
  };

  const remove = async (slug: string) => {
    setRemoving(null);
    const result = await desk().deleteSkill(agentId, slug);
    if (!result.ok) return useAgentConfigStore.getState().noteError('skills', result.error);
    tell('saved', `Removed ${slug}.`);
    await refresh();
  };

  return (
    <SectionFrame
      section="skills"
      about="Skills are folders with a SKILL.md the agent reads when a task calls for it."
    >
      {loadError ? <p className="error-text">{loadError}</p> : null}
      {!skills && !loadError ? <p className="muted">Loading skills…</p> : null}
      {skills ? (
        <>
          <h3>Installed</h3>
          {skills.skills.length === 0 ? <p className="muted">No skills installed.</p> : null}
          <ul className="studio-list" aria-label="Installed skills">
            {skills.skills.map((skill) => (
              <li key={skill.slug}>
                <div>
                  <strong>{skill.slug}</strong>
                  <p className="small-text">{showDirectionControls(skill.description)}</p>
                  <p className="muted small-text">{skill.files.join(', ')}</p>
                </div>
                <button
                  type="button"
                  className="small"
                  aria-label={`Remove ${skill.slug}`}
                  onClick={() => setRemoving(skill.slug)}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>

          <h3>Install from a folder</h3>
          <DropZone onFiles={(files) => void installFolder(files)}>
            <p>
              Drop a skill folder here (a SKILL.md that starts with the skill’s name and description, up to 25
              MB), or
            </p>
            <label className="file-button">
              Choose a folder…
              <input
                type="file"
                className="visually-hidden"
                aria-label="Skill folder"
                {...{ webkitdirectory: '' }}
                onChange={(e) => {
                  void installFolder(filesFromPicker(e.target.files));
                  e.target.value = '';
                }}
              />
            </label>
            {busy ? <p role="status">Installing {busy}…</p> : null}
          </DropZone>

          <h3>Community catalog</h3>
          <ul className="studio-list" aria-label="Community catalog">
            {skills.community.map((item) => (
              <li key={item.slug}>
                <div>
                  <strong>{item.slug}</strong> <span className="studio-tag">{item.license}</span>
                  <p className="small-text">{showDirectionControls(item.description)}</p>
                  <p className="muted small-text">{item.repo}</p>
                </div>
                {item.installed ? (
                  <span className="studio-tag ok">Installed</span>
                ) : (
                  <button
                    type="button"
                    className="small"
                    disabled={!!busy}
                    aria-label={`Install ${item.slug}`}
                    onClick={() => void installFromCatalog(item.slug)}
                  >
                    {busy === item.slug ? 'Installing…' : 'Install'}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <SaveOutcome section="skills" />
      {removing ? (
        <ConfirmDialog
          title={`Remove the skill ${removing}?`}
          confirmLabel="Remove"
          danger
          onConfirm={() => void remove(removing)}
          onCancel={() => setRemoving(null)}
        >
          <p>Its folder and every file in it are deleted from the agent.</p>
        </ConfirmDialog>
      ) : null}
    </SectionFrame>
  );
}
