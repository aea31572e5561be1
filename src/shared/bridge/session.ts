/** The session area: where the API lives (profiles) and who is signed in there. */
import type { Scope } from '../api';
import { bridgeArea } from './bridge-area';
import type { DeskError, DeskResult, Unsubscribe } from './desk-result';

/**
 * A service profile: where the API lives and how this app signs in there.
 * `local` is "this computer": the embedded local service the app starts
 * itself. No secrets are ever part of a profile.
 */
export type ServiceProfile =
  | {
      id: string;
      kind: 'local';
      name: string;
      clientId: string;
      /** The running local service's address, once started. */
      baseUrl?: string;
    }
  | {
      id: string;
      kind: 'custom';
      name: string;
      baseUrl: string;
      clientId: string;
      /** Loopback ports registered for this client, tried before an ephemeral one. */
      loopbackPorts?: number[];
    };

export interface ProfilesState {
  profiles: ServiceProfile[];
  activeProfileId: string | null;
}

export interface AddCustomProfileInput {
  baseUrl: string;
  clientId: string;
  loopbackPorts?: number[];
  /** Shown in the account switcher; defaults to the server's host name. */
  name?: string;
}

/** Where a running sign-in is. `authorizeUrl` is shown as a fallback link when no browser opened. */
export type SignInPhase = 'starting-service' | 'waiting-for-browser' | 'exchanging-code';

export interface SignInProgress {
  phase: SignInPhase;
  authorizeUrl?: string;
}

/** Which secret store keeps tokens, and any warning the person must see. */
export interface SecretStoreState {
  kind: 'keychain' | 'safe-storage' | 'memory';
  /** Present when tokens are less protected than a keychain (Linux `basic_text`, memory only). */
  warning?: string;
}

export type SessionStatus = 'signed-out' | 'signing-in' | 'signed-in';

export interface SessionState {
  status: SessionStatus;
  profile: ServiceProfile | null;
  /** Who is signed in (from the account's agent listing), when known. */
  user?: { id: string; email?: string };
  scopes?: Scope[];
  /** Set while `status` is `signing-in`. */
  signIn?: SignInProgress;
  /** Why the person is signed out when it was not their choice (expired session, refused sign-in). */
  signedOutReason?: DeskError;
  secretStore: SecretStoreState;
}

export interface SessionMethods {
  listProfiles(): Promise<DeskResult<ProfilesState>>;
  /** Adds (or returns the existing) "this computer" profile and makes it active. */
  addLocalProfile(): Promise<DeskResult<ServiceProfile>>;
  /** Adds a custom server profile and makes it active. */
  addCustomProfile(input: AddCustomProfileInput): Promise<DeskResult<ServiceProfile>>;
  switchProfile(profileId: string): Promise<DeskResult<SessionState>>;
  /** Forgets a profile and its tokens. */
  removeProfile(profileId: string): Promise<DeskResult<ProfilesState>>;
  getSession(): Promise<DeskResult<SessionState>>;
  /**
   * Signs in to the active profile through the system browser (in browser
   * mode, a new tab of the page's own browser). Resolves when the sign-in
   * ends; progress arrives through `onSessionChange`.
   */
  signIn(): Promise<DeskResult<SessionState>>;
  cancelSignIn(): Promise<DeskResult<SessionState>>;
  /** Revokes and forgets the active profile's tokens. */
  signOut(): Promise<DeskResult<SessionState>>;
  onSessionChange(listener: (session: SessionState) => void): Unsubscribe;
}

export const sessionArea = bridgeArea<SessionMethods>()({
  calls: [
    'listProfiles',
    'addLocalProfile',
    'addCustomProfile',
    'switchProfile',
    'removeProfile',
    'getSession',
    'signIn',
    'cancelSignIn',
    'signOut',
  ],
  subscriptions: ['onSessionChange'],
});
