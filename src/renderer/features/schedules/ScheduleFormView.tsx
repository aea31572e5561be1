import { useState } from 'react';
import { useSchedulesStore } from '../../stores/schedules-store';
import { emptyScheduleForm, scheduleBody, type ScheduleForm } from '../../model/schedule-form';
import { ErrorLine } from '../../ui/ErrorLine';

/** "In N minutes" or "at a date and time", optionally repeating every N minutes until a date. */
export function ScheduleFormView(props: { agentId: string; sessionId: string }) {
  const [form, setForm] = useState<ScheduleForm>(emptyScheduleForm);
  const [problem, setProblem] = useState('');
  const [saving, setSaving] = useState(false);
  const change = (patch: Partial<ScheduleForm>) => setForm({ ...form, ...patch });

  const submit = async () => {
    if (saving) return;
    const built = scheduleBody(form);
    if (!built.ok) return setProblem(built.problem);
    setSaving(true);
    const refused = await useSchedulesStore.getState().create(props.agentId, props.sessionId, built.body);
    setSaving(false);
    setProblem(refused);
    if (!refused) setForm({ ...emptyScheduleForm, when: form.when });
  };

  return (
    <form
      className="schedule-form"
      aria-label="New scheduled message"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label className="field">
        Message to send
        <textarea
          rows={2}
          value={form.prompt}
          onChange={(e) => change({ prompt: e.target.value })}
          placeholder="e.g. Summarise what changed in the workspace today"
        />
      </label>
      <fieldset className="schedule-when">
        <legend>When</legend>
        <label>
          <input
            type="radio"
            name="when"
            checked={form.when === 'in'}
            onChange={() => change({ when: 'in' })}
          />
          In
          <input
            type="number"
            min="1"
            step="1"
            aria-label="Minutes from now"
            className="narrow"
            value={form.inMinutes}
            disabled={form.when !== 'in'}
            onChange={(e) => change({ inMinutes: e.target.value })}
          />
          minutes
        </label>
        <label>
          <input
            type="radio"
            name="when"
            checked={form.when === 'at'}
            onChange={() => change({ when: 'at' })}
          />
          At
          <input
            type="datetime-local"
            aria-label="Date and time"
            value={form.at}
            disabled={form.when !== 'at'}
            onChange={(e) => change({ at: e.target.value })}
          />
        </label>
      </fieldset>
      <fieldset className="schedule-repeat">
        <legend>Repeat</legend>
        <label>
          <input
            type="checkbox"
            checked={form.repeat}
            onChange={(e) => change({ repeat: e.target.checked })}
          />
          Every
          <input
            type="number"
            min="1"
            step="1"
            aria-label="Repeat every (minutes)"
            className="narrow"
            value={form.repeatMin}
            disabled={!form.repeat}
            onChange={(e) => change({ repeatMin: e.target.value })}
          />
          minutes
        </label>
        <label>
          until
          <input
            type="datetime-local"
            aria-label="Repeat until"
            value={form.until}
            disabled={!form.repeat}
            onChange={(e) => change({ until: e.target.value })}
          />
          <span className="muted small-text">(optional)</span>
        </label>
      </fieldset>
      <ErrorLine text={problem} />
      {/* Not disabled while saving: a disabled button drops the keyboard focus to the page body. */}
      <button type="submit" className="primary" aria-disabled={saving || undefined}>
        Schedule
      </button>
    </form>
  );
}
