import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppSettings, DeskResult } from '../../../src/shared/bridge';

// Two quick clicks in Settings: the host's answer to the first must not undo the second on screen (the
// radio clicked second sprang back), and a slow first load must not undo a click made before it landed.
// The host is scripted here (each answer released by hand) because the order of answers is the point;
// test/e2e/settings.spec.ts drives the same store against the real host.

type Answer = (settings: DeskResult<AppSettings>) => void;

let hostSettings: AppSettings;
let answers: { patch: Partial<AppSettings> | 'load'; answer: Answer }[];
let sent: Partial<AppSettings>[];

function scriptedHost() {
  const later = (patch: Partial<AppSettings> | 'load') =>
    new Promise<DeskResult<AppSettings>>((answer) => answers.push({ patch, answer }));
  return {
    getSettings: () => later('load'),
    getAppInfo: async () => ({ ok: false, error: { code: 'x', message: 'no info here' } }),
    updateSettings: (patch: Partial<AppSettings>) => {
      sent.push(patch);
      return later(patch);
    },
  };
}

/** Releases the oldest answer the host owes, and lets the store take it in. */
async function answerNext(ok = true): Promise<void> {
  await vi.waitFor(() => expect(answers.length).toBeGreaterThan(0));
  const { patch, answer } = answers.shift()!;
  if (!ok) answer({ ok: false, error: { code: 'invalid_settings', message: 'refused' } });
  else {
    if (patch !== 'load') hostSettings = { ...hostSettings, ...patch };
    answer({ ok: true, value: hostSettings });
  }
  await new Promise((taken) => setTimeout(taken, 0));
}

describe('settings changes made quickly', () => {
  beforeEach(() => {
    vi.resetModules();
    answers = [];
    sent = [];
    vi.stubGlobal('document', { documentElement: { dataset: {} } });
    vi.stubGlobal('window', { desk: scriptedHost() });
  });
  afterEach(() => vi.unstubAllGlobals());

  const store = async () => {
    const module = await import('../../../src/renderer/stores/settings-store');
    hostSettings = { ...module.defaultSettings };
    return module.useSettingsStore;
  };

  it('keeps a second change shown while the answer to the first arrives', async () => {
    const settings = await store();
    const first = settings.getState().update({ notifications: false });
    const second = settings.getState().update({ permissionMode: 'auto' });
    await answerNext();
    expect(settings.getState().settings).toMatchObject({ notifications: false, permissionMode: 'auto' });
    await answerNext();
    await Promise.all([first, second]);
    expect(settings.getState().settings).toMatchObject({ notifications: false, permissionMode: 'auto' });
    expect(hostSettings).toMatchObject({ notifications: false, permissionMode: 'auto' });
  });

  it('sends changes to the host one after another, so the last one made is the one kept', async () => {
    const settings = await store();
    const changes = [
      settings.getState().update({ theme: 'light' }),
      settings.getState().update({ theme: 'dark' }),
    ];
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    await answerNext();
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    await answerNext();
    await Promise.all(changes);
    expect(sent).toEqual([{ theme: 'light' }, { theme: 'dark' }]);
    expect(settings.getState().settings.theme).toBe('dark');
    expect(document.documentElement.dataset['theme']).toBe('dark');
  });

  it('does not let a slow first load undo a click made before it landed', async () => {
    const settings = await store();
    const load = settings.getState().load();
    const click = settings.getState().update({ permissionMode: 'auto' });
    expect(answers[0]!.patch).toBe('load');
    await answerNext(); // the load, with the host's settings from before the click
    expect(settings.getState().settings.permissionMode).toBe('auto');
    await answerNext();
    await Promise.all([load, click]);
    expect(settings.getState().settings.permissionMode).toBe('auto');
  });

  it('takes back only the refused change, with its reason, and keeps the one after it', async () => {
    const settings = await store();
    const refused = settings.getState().update({ syncRoot: '/nowhere' });
    const kept = settings.getState().update({ notifications: false });
    await answerNext(false);
    await refused;
    expect(settings.getState().settings).toMatchObject({ syncRoot: null, notifications: false });
    expect(settings.getState().error).toBe('refused');
    await answerNext();
    await kept;
    expect(settings.getState().settings).toMatchObject({ syncRoot: null, notifications: false });
  });
});
