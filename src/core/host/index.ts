import { join } from 'node:path';
import type { z } from 'zod';
import {
  ALL_SCOPES,
  type Compartida,
  describeZodError,
  MessageImage,
  PatchAgentBody,
  PermissionBody,
  ScheduleBody,
  type Scope,
} from '../shared/api';
import type {
  ConversationUpdate,
  DeskBridge,
  DeskError,
  DeskResult,
  NotificationInput,
  PlatformInfo,
  ProfilesState,
  ServiceProfile,
  SessionState,
  SignInProgress,
  Unsubscribe,
} from '../shared/bridge';
import { createApiClient, type ApiClient, type ApiResult } from './api/api-client';
import type { FetchLike } from './api/result';
import type { Logger } from './auth/logger';
import { silentLogger } from './auth/logger';
import { startLogin, type LoginError } from './auth/login-flow';
import type { SecretStore } from './auth/secret-store';
import { TokenManager } from './auth/token-manager';
import { subscribeEvents, type EventSubscription, type StreamError } from './events/sse-client';
import { createHostSync, type HostSyncSettings, type SyncOs } from './host-sync';
import { openProfileStore, type ProfileStore } from './profiles/profile-store';

/**
 * Implements DeskBridge for every program (Electron, browser mode, CLI) on top
 * of core/auth, core/api, core/events and core/profiles. Platform pieces
 * (opening a browser, notifications, starting the embedded service) are
 * injected, so this file stays plain Node.
 */

/** The embedded local service as the host needs it (main/, browser/ and cli/ start it). */
export interface EmbeddedService {
  url: string;
  close(): Promise<void>;
}

export interface HostOs extends SyncOs {
  platform: PlatformInfo;
  notify(notification: NotificationInput): void | Promise<void>;
  /** Opens an https link in the system browser (the host checks the scheme first). */
  openExternal(url: string): void | Promise<void>;
}

export interface HostOptions {
  /** The app's data folder: `profiles.json`, and the embedded service's data under `local-service/`. */
  dataDir: string;
  /** Overrides where "this computer"'s service keeps its data. */
  localServiceDataDir?: string;
  secrets: SecretStore;
  startEmbeddedService(options: { dataDir: string }): Promise<EmbeddedService>;
  /** Shows the authorize page: shell.openExternal, a browser-mode tab, or print-and-open in the CLI. */
  openBrowser(url: string): void | Promise<void>;
  os: HostOs;
  /** Electron's net.fetch in the app; global fetch elsewhere. */
  fetch?: FetchLike;
  logger?: Logger;
  /** Where sign-in-done.html lives (found from the repo by default). */
  resourcesDir?: string;
  scopes?: readonly Scope[];
  signInTimeoutMs?: number;
  /** Epoch ms, for token expiry. */
  now?: () => number;
  /** Sync timings and trash (tests); folders are remembered under `profiles/<id>/sync/`. */
  sync?: HostSyncSettings;
}

export interface DeskHost extends DeskBridge {
  /** Stops sign-ins, streams and the embedded service. */
  close(): Promise<void>;
}

/** The active profile's live parts: where its API is and who holds its tokens. */
interface Connection {
  profile: ServiceProfile;
  baseUrl: string;
  tokens: TokenManager;
  api: ApiClient;
  stopTokenEvents: () => void;
}

const tokenKey = (profileId: string): string => `tokens:${profileId}`;

const deskError = (code: string, message: string): DeskError => ({ code, message });
const fail = <T>(code: string, message: string): DeskResult<T> => ({
  ok: false,
  error: deskError(code, message),
});

const LOGIN_ERROR_CODES: Record<string, string> = {
  cancelled: 'sign_in_cancelled',
  timeout: 'sign_in_timed_out',
  state_mismatch: 'sign_in_state_mismatch',
  access_denied: 'sign_in_refused',
  authorization_error: 'sign_in_refused',
};

function fromLoginError(error: LoginError): DeskError {
  return { code: LOGIN_ERROR_CODES[error.code] ?? error.code, message: error.message };
}

/** For API calls whose response body the spec does not show: success carries nothing. */
async function noBody(call: Promise<ApiResult<unknown>>): Promise<ApiResult<void>> {
  const result = await call;
  return result.ok ? { ok: true, value: undefined } : result;
}

function toDeskResult<T>(result: ApiResult<T>): DeskResult<T> {
  if (result.ok) return result;
  const { code, message, status } = result.error;
  return { ok: false, error: { code, message, ...(status ? { status } : {}) } };
}

function checkId(value: unknown, what: string): DeskError | undefined {
  return typeof value === 'string' && value.trim() !== '' && value.length <= 512
    ? undefined
    : deskError('invalid_argument', `A ${what} is needed.`);
}

function checkBody<T>(schema: z.ZodType<T>, value: unknown): DeskResult<T> {
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : fail('invalid_argument', `That can't be sent: ${describeZodError(parsed.error)}.`);
}

function isHttpsUrl(url: unknown): url is string {
  if (typeof url !== 'string') return false;
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

export async function createHost(options: HostOptions): Promise<DeskHost> {
  const logger = options.logger ?? silentLogger;
  const profiles: ProfileStore = await openProfileStore({ filePath: join(options.dataDir, 'profiles.json') });
  const localDataDir = options.localServiceDataDir ?? join(options.dataDir, 'local-service');
  const scopes = options.scopes ?? ALL_SCOPES;

  let localService: Promise<EmbeddedService> | undefined;
  let connection: Connection | undefined;
  /** The running sign-in, from its first step (starting the service) to its end. */
  let login: { abort: AbortController; profileId: string; done: Promise<unknown> } | undefined;
  let signInProgress: SignInProgress | undefined;
  let signedOutReason: DeskError | undefined;
  let user: SessionState['user'];
  let secretWarning = options.secrets.warning;
  let closed = false;
  const sessionListeners = new Set<(session: SessionState) => void>();
  const streams = new Set<EventSubscription>();
  const sync = createHostSync({ ...options.sync, dataDir: options.dataDir, os: options.os, logger });

  // --- Session state ------------------------------------------------------------------------

  const withLocalUrl = (profile: ServiceProfile): ServiceProfile =>
    profile.kind === 'local' && connection?.profile.id === profile.id
      ? { ...profile, baseUrl: connection.baseUrl }
      : profile;

  const session = (): SessionState => {
    const active = profiles.active();
    const profile = active ? withLocalUrl(active) : null;
    const signedIn = !!connection && connection.profile.id === active?.id && connection.tokens.signedIn;
    const state: SessionState = {
      status: signInProgress ? 'signing-in' : signedIn ? 'signed-in' : 'signed-out',
      profile,
      secretStore: {
        kind: options.secrets.kind as SessionState['secretStore']['kind'],
        ...(secretWarning ? { warning: secretWarning } : {}),
      },
    };
    if (signedIn && user) state.user = user;
    if (signedIn) state.scopes = connection!.tokens.scopes as Scope[];
    if (signInProgress) state.signIn = signInProgress;
    if (!signedIn && signedOutReason) state.signedOutReason = signedOutReason;
    return state;
  };

  const emitSession = (): void => {
    const state = session();
    for (const listener of sessionListeners) {
      try {
        listener(state);
      } catch (error) {
        logger.error('A session listener failed.', error);
      }
    }
  };

  // --- The active profile's connection -----------------------------------------------------

  const ensureLocalService = (): Promise<EmbeddedService> => {
    localService ??= options.startEmbeddedService({ dataDir: localDataDir }).catch((error: unknown) => {
      localService = undefined;
      throw error;
    });
    return localService;
  };

  const closeStreams = (): void => {
    for (const stream of [...streams]) stream.close();
    streams.clear();
  };

  const dropConnection = (): void => {
    closeStreams();
    sync.disconnect();
    connection?.stopTokenEvents();
    connection = undefined;
    user = undefined;
  };

  const refreshUser = async (): Promise<void> => {
    const current = connection;
    if (!current?.tokens.signedIn) return;
    const agents = await current.api.listAgents();
    if (agents.ok && connection === current) {
      user = agents.value.usuario;
      emitSession();
    }
  };

  /** Builds (or reuses) the connection of the active profile; starts the embedded service for "this computer". */
  const connect = async (): Promise<DeskResult<Connection>> => {
    const profile = profiles.active();
    if (!profile) return fail('signed_out', 'Choose where to sign in first: this computer or a server.');
    if (connection?.profile.id === profile.id) return { ok: true, value: connection };
    dropConnection();
    let baseUrl: string;
    if (profile.kind === 'local') {
      try {
        baseUrl = (await ensureLocalService()).url;
      } catch (error) {
        logger.error('The local service did not start.', error);
        return fail(
          'service_unavailable',
          `AgentDesk could not start its local service (${error instanceof Error ? error.message : String(error)}).`,
        );
      }
    } else {
      baseUrl = profile.baseUrl;
    }
    if (profiles.active()?.id !== profile.id)
      return fail('signed_out', 'The account changed while connecting.');
    const oauth = {
      baseUrl,
      clientId: profile.clientId,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.now ? { now: options.now } : {}),
    };
    const tokens = await TokenManager.open({
      store: options.secrets,
      key: tokenKey(profile.id),
      oauth,
      logger,
    });
    if (connection) return { ok: true, value: connection }; // a concurrent connect won
    const api = createApiClient({
      baseUrl,
      auth: tokens,
      logger,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    const built: Connection = { profile, baseUrl, tokens, api, stopTokenEvents: () => {} };
    built.stopTokenEvents = tokens.onEvent((event) => {
      if (connection !== built) return;
      if (event.type === 'signed-in') {
        sync.connect(built.profile.id, built.api);
      } else if (event.type === 'signed-out') {
        closeStreams();
        sync.disconnect();
        user = undefined;
        signedOutReason =
          event.reason === 'session_ended' ? deskError('session_expired', event.message) : undefined;
      } else if (event.type === 'storage-warning') {
        secretWarning = event.message;
      }
      emitSession();
    });
    connection = built;
    if (tokens.signedIn) sync.connect(profile.id, api);
    void refreshUser();
    return { ok: true, value: built };
  };

  /** Runs an API call for the signed-in person, or says plainly why it can't. */
  const withApi = async <T>(run: (api: ApiClient) => Promise<ApiResult<T>>): Promise<DeskResult<T>> => {
    const connected = await connect();
    if (!connected.ok) return connected;
    if (!connected.value.tokens.signedIn) return fail('signed_out', 'You are signed out. Please sign in.');
    return toDeskResult(await run(connected.value.api));
  };

  const activate = async (): Promise<void> => {
    signedOutReason = undefined;
    const connected = await connect();
    if (!connected.ok && connected.error.code === 'service_unavailable') signedOutReason = connected.error;
    emitSession();
  };

  const stopLogin = async (): Promise<void> => {
    const running = login;
    if (!running) return;
    running.abort.abort();
    await running.done;
  };

  const cancelled = (): DeskResult<never> => {
    signInProgress = undefined;
    emitSession();
    return fail('sign_in_cancelled', 'Sign-in was cancelled.');
  };

  // Bring back the remembered profile (and its saved sign-in) on start.
  if (profiles.active()) await activate();

  // --- Conversations' live events -------------------------------------------------------------

  const onConversationEvent = (
    agentId: string,
    sessionId: string,
    listener: (update: ConversationUpdate) => void,
  ): Unsubscribe => {
    let active = true;
    let subscription: EventSubscription | undefined;
    const send = (update: ConversationUpdate): void => {
      if (!active) return;
      try {
        listener(update);
      } catch (error) {
        logger.error('A conversation listener failed.', error);
      }
    };
    const invalid = checkId(agentId, 'agent') ?? checkId(sessionId, 'conversation');
    if (invalid) {
      send({ kind: 'connection', connection: { state: 'closed', error: invalid } });
      return () => {
        active = false;
      };
    }
    void connect().then((connected) => {
      if (!active) return;
      if (!connected.ok || !connected.value.tokens.signedIn) {
        const error = connected.ok
          ? deskError('signed_out', 'You are signed out. Please sign in.')
          : connected.error;
        send({ kind: 'connection', connection: { state: 'closed', error } });
        return;
      }
      const { api, tokens } = connected.value;
      let attempt = 0;
      let lastProblem: StreamError | undefined;
      subscription = subscribeEvents({
        url: api.eventsUrl(agentId, sessionId),
        auth: tokens,
        logger,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        onEvent: (event) => {
          // Sync hears of the agent's file changes from streams the renderer opened, never its own.
          sync.hint(agentId, event);
          send({ kind: 'event', event });
        },
        onError: (error) => {
          lastProblem = error;
        },
        onState: (state) => {
          if (state === 'open') {
            attempt = 0;
            send({ kind: 'connection', connection: { state: 'open' } });
          } else if (state === 'connecting') {
            send({ kind: 'connection', connection: { state: 'connecting' } });
          } else if (state === 'reconnecting') {
            attempt += 1;
            send({
              kind: 'connection',
              connection: {
                state: 'reconnecting',
                attempt,
                ...(lastProblem ? { reason: lastProblem.message } : {}),
              },
            });
          } else {
            const error = lastProblem?.fatal ? deskError(lastProblem.code, lastProblem.message) : undefined;
            send({ kind: 'connection', connection: { state: 'closed', ...(error ? { error } : {}) } });
            if (subscription) streams.delete(subscription);
          }
        },
      });
      streams.add(subscription);
    });
    return () => {
      if (!active) return;
      active = false;
      if (subscription) {
        streams.delete(subscription);
        subscription.close();
      }
    };
  };

  // --- The bridge ---------------------------------------------------------------------------

  const runSignIn = async (
    profile: ServiceProfile,
    signal: AbortSignal,
  ): Promise<DeskResult<SessionState>> => {
    signedOutReason = undefined;
    signInProgress = { phase: profile.kind === 'local' ? 'starting-service' : 'waiting-for-browser' };
    emitSession();
    const connected = await connect();
    if (signal.aborted) return cancelled();
    if (!connected.ok) {
      signInProgress = undefined;
      signedOutReason = connected.error;
      emitSession();
      return connected;
    }
    const current = connected.value;
    const attempt = startLogin({
      baseUrl: current.baseUrl,
      clientId: current.profile.clientId,
      scopes,
      signal,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.now ? { now: options.now } : {}),
      ...(current.profile.kind === 'custom' && current.profile.loopbackPorts
        ? { registeredPorts: current.profile.loopbackPorts }
        : {}),
      ...(options.resourcesDir ? { resourcesDir: options.resourcesDir } : {}),
      ...(options.signInTimeoutMs ? { timeoutMs: options.signInTimeoutMs } : {}),
      logger,
      openBrowser: async (url) => {
        signInProgress = { phase: 'waiting-for-browser', authorizeUrl: url };
        emitSession();
        await options.openBrowser(url);
      },
    });
    const result = await attempt.result;
    await attempt.closed;
    signInProgress = undefined;
    if (!result.ok) {
      const error = fromLoginError(result.error);
      // Cancelling is the person's own choice: nothing to explain afterwards.
      signedOutReason = error.code === 'sign_in_cancelled' ? undefined : error;
      emitSession();
      return { ok: false, error };
    }
    if (connection !== current) {
      emitSession();
      return fail('signed_out', 'The account changed during sign-in. Please sign in again.');
    }
    await current.tokens.signIn(result.value);
    await refreshUser();
    emitSession();
    return { ok: true, value: session() };
  };

  const host: DeskHost = {
    async listProfiles(): Promise<DeskResult<ProfilesState>> {
      const state = profiles.state();
      return { ok: true, value: { ...state, profiles: state.profiles.map(withLocalUrl) } };
    },

    async addLocalProfile() {
      await stopLogin();
      const profile = await profiles.addLocal();
      await activate();
      return connection?.profile.id === profile.id
        ? { ok: true, value: withLocalUrl(profile) }
        : fail(
            'service_unavailable',
            signedOutReason?.message ?? 'AgentDesk could not start its local service.',
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
      if (login?.profileId === profileId) await stopLogin();
      const wasActive = profiles.active()?.id === profileId;
      const profile = profiles.get(profileId);
      const removed = await profiles.remove(profileId);
      if (!removed.ok) return removed;
      if (wasActive) dropConnection();
      await options.secrets.delete(tokenKey(profileId)).catch(() => undefined);
      if (profile?.kind === 'local' && localService) {
        const running = localService;
        localService = undefined;
        await (await running).close().catch(() => undefined);
      }
      if (wasActive && profiles.active()) await activate();
      else emitSession();
      return removed;
    },

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
        return await runSignIn(profile, abort.signal);
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
      const current = connection;
      signedOutReason = undefined;
      if (current?.tokens.signedIn) {
        closeStreams();
        user = undefined;
        await current.tokens.signOut();
      }
      emitSession();
      return { ok: true, value: session() };
    },

    onSessionChange(listener) {
      sessionListeners.add(listener);
      listener(session());
      return () => {
        sessionListeners.delete(listener);
      };
    },

    async listAgents() {
      const result = await withApi((api) => api.listAgents());
      if (result.ok && connection && user?.id !== result.value.usuario.id) {
        user = result.value.usuario;
        emitSession();
      }
      return result;
    },

    async getAgentConfig(agentId, query = {}) {
      const invalid = checkId(agentId, 'agent');
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) =>
        api.getAgentConfig(agentId, {
          full: query.full === '1',
          ...(query.fields ? { fields: query.fields.split(',').map((f) => f.trim()) } : {}),
        }),
      );
    },

    async patchAgentConfig(agentId, patch) {
      const invalid = checkId(agentId, 'agent');
      if (invalid) return { ok: false, error: invalid };
      const body = checkBody(PatchAgentBody, patch);
      if (!body.ok) return body;
      return withApi((api) => api.updateAgentConfig(agentId, body.value));
    },

    async listConversations(agentId) {
      const invalid = checkId(agentId, 'agent');
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) => api.listConversations(agentId));
    },

    async createConversation(agentId) {
      const invalid = checkId(agentId, 'agent');
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) => api.createConversation(agentId));
    },

    async getConversation(agentId, sessionId, getOptions = {}) {
      const invalid = checkId(agentId, 'agent') ?? checkId(sessionId, 'conversation');
      if (invalid) return { ok: false, error: invalid };
      const limit = getOptions.limit;
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
        return fail('invalid_argument', 'The message limit must be a whole number.');
      }
      return withApi((api) => api.getConversation(agentId, sessionId, limit === undefined ? {} : { limit }));
    },

    async renameConversation(agentId, sessionId, title) {
      const invalid = checkId(agentId, 'agent') ?? checkId(sessionId, 'conversation');
      if (invalid) return { ok: false, error: invalid };
      if (typeof title !== 'string') return fail('invalid_argument', 'A title is needed.');
      return withApi((api) => noBody(api.renameConversation(agentId, sessionId, title)));
    },

    async archiveConversation(agentId, sessionId) {
      const invalid = checkId(agentId, 'agent') ?? checkId(sessionId, 'conversation');
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) => noBody(api.archiveConversation(agentId, sessionId)));
    },

    async getShare(agentId, sessionId) {
      return shareCall(agentId, sessionId, (api) => api.getSharing(agentId, sessionId));
    },
    async share(agentId, sessionId) {
      return shareCall(agentId, sessionId, (api) => api.share(agentId, sessionId));
    },
    async unshare(agentId, sessionId) {
      return shareCall(agentId, sessionId, (api) => api.unshare(agentId, sessionId));
    },

    async sendMessage(agentId, sessionId, input) {
      const invalid = checkId(agentId, 'agent') ?? checkId(sessionId, 'conversation');
      if (invalid) return { ok: false, error: invalid };
      if (typeof input !== 'object' || input === null || typeof input.content !== 'string') {
        return fail('invalid_argument', 'A message needs some text.');
      }
      const images =
        input.attachments === undefined
          ? undefined
          : checkBody(MessageImage.array().max(8), input.attachments);
      if (images && !images.ok) return images;
      return withApi((api) =>
        api.sendMessage(agentId, sessionId, {
          content: input.content,
          ...(input.turnId ? { turnId: input.turnId } : {}),
          ...(input.primerTurno !== undefined ? { primerTurno: input.primerTurno } : {}),
          ...(input.permisos ? { permisos: input.permisos } : {}),
          ...(images ? { images: images.value } : {}),
        }),
      );
    },

    async cancelTurn(agentId, sessionId) {
      const invalid = checkId(agentId, 'agent') ?? checkId(sessionId, 'conversation');
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) => api.cancelTurn(agentId, sessionId));
    },

    async answerPermission(agentId, sessionId, answer) {
      const invalid = checkId(agentId, 'agent') ?? checkId(sessionId, 'conversation');
      if (invalid) return { ok: false, error: invalid };
      const body = checkBody(PermissionBody, answer);
      if (!body.ok) return body;
      return withApi((api) => api.answerPermission(agentId, sessionId, body.value));
    },

    async setModel(agentId, sessionId, model) {
      const invalid =
        checkId(agentId, 'agent') ?? checkId(sessionId, 'conversation') ?? checkId(model, 'model');
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) => noBody(api.setModel(agentId, sessionId, model)));
    },

    onConversationEvent,

    async listSchedules(agentId, sessionId) {
      const invalid = checkId(agentId, 'agent') ?? checkId(sessionId, 'conversation');
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) => api.listSchedule(agentId, sessionId));
    },

    async createSchedule(agentId, sessionId, body) {
      const invalid = checkId(agentId, 'agent') ?? checkId(sessionId, 'conversation');
      if (invalid) return { ok: false, error: invalid };
      const checked = checkBody(ScheduleBody, body);
      if (!checked.ok) return checked;
      return withApi((api) => api.scheduleTurn(agentId, sessionId, checked.value));
    },

    async deleteSchedule(agentId, sessionId, scheduleId) {
      const invalid =
        checkId(agentId, 'agent') ??
        checkId(sessionId, 'conversation') ??
        checkId(scheduleId, 'scheduled turn');
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) => noBody(api.cancelScheduledTurn(agentId, sessionId, scheduleId)));
    },

    async listFiles() {
      return withApi((api) => api.listFiles());
    },

    async uploadFile(input) {
      if (typeof input !== 'object' || input === null) return fail('invalid_argument', 'A file is needed.');
      const invalid = checkId(input.nombre, 'file name');
      if (invalid) return { ok: false, error: invalid };
      if (typeof input.dataBase64 !== 'string') return fail('invalid_argument', 'The file has no contents.');
      const bytes = new Uint8Array(Buffer.from(input.dataBase64, 'base64'));
      return withApi((api) =>
        api.uploadFile(input.nombre, bytes, input.mimeType ?? 'application/octet-stream'),
      );
    },

    async deleteFile(fileId) {
      const invalid = checkId(fileId, 'file');
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) => api.deleteFile(fileId));
    },

    async getFileUrl(fileId) {
      const invalid = checkId(fileId, 'file');
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) => api.getFileUrl(fileId));
    },

    async notify(notification) {
      if (typeof notification?.title !== 'string')
        return fail('invalid_argument', 'A notification needs a title.');
      await options.os.notify({
        title: notification.title.slice(0, 200),
        ...(typeof notification.body === 'string' ? { body: notification.body.slice(0, 1000) } : {}),
      });
      return { ok: true, value: undefined };
    },

    async openExternal(url) {
      if (!isHttpsUrl(url)) return fail('invalid_argument', 'Only https links can be opened.');
      await options.os.openExternal(url);
      return { ok: true, value: undefined };
    },

    async getPlatform() {
      return { ok: true, value: options.os.platform };
    },

    ...sync.bridge,

    async close() {
      if (closed) return;
      closed = true;
      await stopLogin();
      dropConnection();
      await sync.close();
      sessionListeners.clear();
      const running = localService;
      localService = undefined;
      if (running) await (await running.catch(() => undefined))?.close();
    },
  };

  async function shareCall(
    agentId: string,
    sessionId: string,
    run: (api: ApiClient) => Promise<ApiResult<Compartida>>,
  ) {
    const invalid = checkId(agentId, 'agent') ?? checkId(sessionId, 'conversation');
    if (invalid) return { ok: false as const, error: invalid };
    const result = await withApi(run);
    if (!result.ok) return result;
    const base = connection?.baseUrl;
    const publicUrl =
      result.value.compartida && base && result.value.slug
        ? `${base}/s/${encodeURIComponent(result.value.slug)}`
        : null;
    return { ok: true as const, value: { ...result.value, publicUrl } };
  }

  return host;
}
