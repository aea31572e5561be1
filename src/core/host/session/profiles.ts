import type { DeskError, ServiceProfile, SessionMethods, SessionState } from '../../../shared/bridge';
import type { ProfileStore } from '../../profiles/profile-store';
import { fail } from '../plumbing/call-results';
import type { ActiveConnection } from '../plumbing/connection';

type ProfileMethods = Pick<
  SessionMethods,
  'listProfiles' | 'addLocalProfile' | 'addCustomProfile' | 'switchProfile' | 'removeProfile'
>;

/** What the profile calls need of the session around them. */
export interface ProfileCallsContext {
  profiles: ProfileStore;
  connection: ActiveConnection;
  /** A local profile as the renderer sees it: with the running service's address. */
  withLocalUrl(profile: ServiceProfile): ServiceProfile;
  session(): SessionState;
  /** Connects the active profile and tells the renderer. */
  activate(): Promise<void>;
  /** Ends a sign-in waiting for the browser. */
  stopLogin(): Promise<void>;
  signingInTo(): string | undefined;
  signedOutReason(): DeskError | undefined;
  emitSession(): void;
}

/** The profiles: where the API lives (this computer or a server), which one is active. */
export function createProfileMethods(context: ProfileCallsContext): ProfileMethods {
  const { profiles, connection, withLocalUrl, session, activate, stopLogin, signingInTo, signedOutReason } =
    context;
  return {
    async listProfiles() {
      const state = profiles.state();
      return { ok: true, value: { ...state, profiles: state.profiles.map(withLocalUrl) } };
    },

    async addLocalProfile() {
      await stopLogin();
      const profile = await profiles.addLocal();
      await activate();
      return connection.current()?.profile.id === profile.id
        ? { ok: true, value: withLocalUrl(profile) }
        : fail(
            'service_unavailable',
            signedOutReason()?.message ?? 'AgentDesk could not start its local service.',
          );
    },

    async addCustomProfile(input) {
      if (typeof input !== 'object' || input === null)
        return fail('invalid_argument', 'A server address is needed.');
      const added = await profiles.addCustom(input);
      if (!added.ok) return added;
      await stopLogin();
      await activate();
      return added;
    },

    async switchProfile(profileId) {
      await stopLogin();
      const switched = await profiles.setActive(profileId);
      if (!switched.ok) return switched;
      await activate();
      return { ok: true, value: session() };
    },

    async removeProfile(profileId) {
      if (signingInTo() === profileId) await stopLogin();
      const wasActive = profiles.active()?.id === profileId;
      const profile = profiles.get(profileId);
      const removed = await profiles.remove(profileId);
      if (!removed.ok) return removed;
      if (wasActive) connection.drop();
      await connection.forget(profileId, profile);
      if (wasActive && profiles.active()) await activate();
      else context.emitSession();
      return removed;
    },
  };
}
