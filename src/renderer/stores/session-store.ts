import { create } from 'zustand';
import type { AddCustomProfileInput, ProfilesState, SessionState } from '../../shared/bridge';
import { desk } from '../desk';
import { errorWords } from '../error-words';
import { dropEarlyAgents, listAgentsEarly } from './agents-store';

interface SessionStore {
  session: SessionState | null;
  profiles: ProfilesState | null;
  /** The last failure, in plain words. */
  error: string;
  busy: boolean;
  /** Loads the session and follows its changes; returns the unsubscribe. */
  start(): () => void;
  signInHere(): Promise<void>;
  signInCustom(input: AddCustomProfileInput): Promise<void>;
  cancelSignIn(): Promise<void>;
  signOut(): Promise<void>;
}

export const useSessionStore = create<SessionStore>((set, get) => ({
  session: null,
  profiles: null,
  error: '',
  busy: false,
  start() {
    const stop = desk().onSessionChange((session) => set({ session }));
    listAgentsEarly();
    void desk()
      .getSession()
      .then((result) => {
        if (!result.ok || result.value.status !== 'signed-in') dropEarlyAgents();
        if (result.ok) set({ session: result.value });
        else set({ error: errorWords(result.error) });
      });
    void desk()
      .listProfiles()
      .then((result) => result.ok && set({ profiles: result.value }));
    return stop;
  },
  async signInHere() {
    set({ busy: true, error: '' });
    const profile = await desk().addLocalProfile();
    if (!profile.ok) return set({ busy: false, error: errorWords(profile.error) });
    await signIn(set);
  },
  async signInCustom(input) {
    set({ busy: true, error: '' });
    const profile = await desk().addCustomProfile(input);
    if (!profile.ok) return set({ busy: false, error: errorWords(profile.error) });
    await signIn(set);
  },
  async cancelSignIn() {
    const result = await desk().cancelSignIn();
    set({ busy: false, ...(result.ok ? { session: result.value } : {}) });
  },
  async signOut() {
    const result = await desk().signOut();
    if (result.ok) set({ session: result.value, error: '' });
    else set({ error: errorWords(result.error) });
    void get();
  },
}));

async function signIn(set: (partial: Partial<SessionStore>) => void) {
  const result = await desk().signIn();
  if (result.ok) set({ busy: false, session: result.value });
  else set({ busy: false, error: result.error.code === 'sign_in_cancelled' ? '' : errorWords(result.error) });
}
