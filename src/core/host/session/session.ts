import type {
  DeskError,
  DeskResult,
  ServiceProfile,
  SessionMethods,
  SessionState,
  SignInProgress,
} from '../../../shared/bridge';
import type { Scope } from '../../../shared/api';
import type { SecretStore } from '../../auth/secret-store';
import type { ProfileStore } from '../../profiles/profile-store';
import { deskError, fail } from '../plumbing/call-results';
import type { ActiveConnection, ConnectionEvent } from '../plumbing/connection';
import { createEventHub } from '../plumbing/event-hub';
import type { StreamRegistry } from '../plumbing/stream-registry';
import { createProfileMethods } from './profiles';
import { runSignIn, type SignInSettings } from './sign-in';

/**
 * The session area: the profiles (where the API lives), the active one's
 * connection, and who is signed in there. Every change reaches
 * `onSessionChange` listeners as a whole `SessionState`.
 */
export interface SessionAreaOptions extends SignInSettings {
  profiles: ProfileStore;
  connection: ActiveConnection;
  secrets: SecretStore;
  /** Closed before signing out, so no stream retries with tokens being revoked. */
  streams: StreamRegistry;
}

export interface SessionArea {
  bridge: SessionMethods;
  /** Brings back the remembered profile (and its saved sign-in) on start. */
  start(): Promise<void>;
  /** The account listing named the person: remember them if they changed. */
  noteUser(user: NonNullable<SessionState['user']>): void;
  close(): Promise<void>;
}

type User = SessionState['user'];

export function createSessionArea(options: SessionAreaOptions): SessionArea {
  const { profiles, connection, logger } = options;
  const sessionHub = createEventHub<SessionState>(logger, 'session');
  /** The running sign-in, from its first step (starting the service) to its end. */
  let login: { abort: AbortController; profileId: string; done: Promise<unknown> } | undefined;
  let signInProgress: SignInProgress | undefined;
  let signedOutReason: DeskError | undefined;
  let user: User;
  let secretWarning = options.secrets.warning;

  const withLocalUrl = (profile: ServiceProfile): ServiceProfile => {
    const current = connection.current();
    return profile.kind === 'local' && current?.profile.id === profile.id
      ? { ...profile, baseUrl: current.baseUrl }
      : profile;
  };

  const session = (): SessionState => {
    const active = profiles.active();
    const current = connection.current();
    const signedIn = !!current && current.profile.id === active?.id && current.tokens.signedIn;
    const state: SessionState = {
      status: signInProgress ? 'signing-in' : signedIn ? 'signed-in' : 'signed-out',
      profile: active ? withLocalUrl(active) : null,
      secretStore: {
        kind: options.secrets.kind as SessionState['secretStore']['kind'],
        ...(secretWarning ? { warning: secretWarning } : {}),
      },
    };
    if (signedIn && user) state.user = user;
    if (signedIn) state.scopes = current.tokens.scopes as Scope[];
    if (signInProgress) state.signIn = signInProgress;
    if (!signedIn && signedOutReason) state.signedOutReason = signedOutReason;
    return state;
  };

  const emitSession = (): void => sessionHub.emit(session());

  const refreshUser = async (): Promise<void> => {
    const current = connection.current();
    if (!current?.tokens.signedIn) return;
    const agents = await current.api.listAgents();
    if (agents.ok && connection.current() === current) {
      user = agents.value.user;
      emitSession();
    }
  };

  const onConnection = (event: ConnectionEvent): void => {
    if (event.type === 'dropped') {
      user = undefined;
    } else if (event.type === 'connected') {
      void refreshUser();
    } else {
      const tokens = event.event;
      if (tokens.type === 'signed-out') {
        user = undefined;
        signedOutReason =
          tokens.reason === 'session_ended' ? deskError('session_expired', tokens.message) : undefined;
      } else if (tokens.type === 'storage-warning') {
        secretWarning = tokens.message;
      }
      emitSession();
    }
  };
  const stopListening = connection.on(onConnection);

  const activate = async (): Promise<void> => {
    signedOutReason = undefined;
    const connected = await connection.connect();
    if (!connected.ok && connected.error.code === 'service_unavailable') signedOutReason = connected.error;
    emitSession();
  };

  const stopLogin = async (): Promise<void> => {
    const running = login;
    if (!running) return;
    running.abort.abort();
    await running.done;
  };

  const signIn = async (profile: ServiceProfile, signal: AbortSignal): Promise<DeskResult<SessionState>> => {
    const done = await runSignIn(profile, signal, connection, options, {
      progress: (progress) => (signInProgress = progress),
      reason: (error) => (signedOutReason = error),
      changed: emitSession,
      signedIn: refreshUser,
    });
    return done.ok ? { ok: true, value: session() } : done;
  };

  const bridge: SessionMethods = {
    ...createProfileMethods({
      profiles,
      connection,
      withLocalUrl,
      session,
      activate,
      stopLogin,
      signingInTo: () => login?.profileId,
      signedOutReason: () => signedOutReason,
      emitSession,
    }),

    async getSession() {
      return { ok: true, value: session() };
    },

    async signIn() {
      if (login) return fail('sign_in_in_progress', 'A sign-in is already waiting for the browser.');
      const profile = profiles.active();
      if (!profile) return fail('signed_out', 'Choose where to sign in first: this computer or a server.');
      const abort = new AbortController();
      let finished!: () => void;
      login = { abort, profileId: profile.id, done: new Promise<void>((resolve) => (finished = resolve)) };
      try {
        return await signIn(profile, abort.signal);
      } finally {
        login = undefined;
        finished();
      }
    },

    async cancelSignIn() {
      await stopLogin();
      return { ok: true, value: session() };
    },

    async signOut() {
      await stopLogin();
      const current = connection.current();
      signedOutReason = undefined;
      if (current?.tokens.signedIn) {
        options.streams.closeAll();
        user = undefined;
        await current.tokens.signOut();
      }
      emitSession();
      return { ok: true, value: session() };
    },

    onSessionChange(listener) {
      const stop = sessionHub.on(listener);
      listener(session());
      return stop;
    },
  };

  return {
    bridge,
    async start() {
      if (!profiles.active()) return;
      await activate();
      // No keychain: This computer's tokens ended with the last run, but the choice of it did not. Its own
      // service trusts this app, so sign in again as the first run did, without asking "where" again.
      const current = connection.current();
      const lostTokens = options.secrets.kind === 'memory' && !current?.tokens.signedIn;
      if (lostTokens && current?.profile.kind === 'local' && current.signInApp) await bridge.signIn();
    },
    noteUser(next) {
      if (connection.current() && user?.id !== next.id) {
        user = next;
        emitSession();
      }
    },
    async close() {
      await stopLogin();
      stopListening();
      sessionHub.clear();
    },
  };
}
