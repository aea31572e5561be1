/** What the service's side says to and hears from one agent machine (machine.ts), as types. */
import type {
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionConfigOption,
  SessionUpdate,
} from '@agentclientprotocol/sdk/unstable';

/** What a request carries under ACP's `_meta`, for the agent only (never logged). */
export type RequestMeta = Record<string, unknown>;

/** Why a machine stopped, when it was asked to. */
export type StopCause = 'restart' | 'stop' | 'idle' | 'close';

/** Receives what one session's running prompt produces. */
export interface SessionListener {
  update(update: SessionUpdate): void;
  permission(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse>;
}

/** What opening a session returns: the ACP response, raw (it may carry fields the SDK schema lacks). */
export interface OpenedSession {
  sessionId: string;
  loaded: boolean;
  configOptions: SessionConfigOption[] | null | undefined;
  raw: unknown;
}
