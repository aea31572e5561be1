import { randomUUID } from 'node:crypto';
import {
  apiRoutes,
  CancelResult,
  PermissionResult,
  PostMessageAccepted,
  type PermissionBody,
  type PostMessageBodyInput,
  type SendMessageInput,
} from '../../shared/api';
import { json, none, type ApiRequest, type CallOptions } from './api-request';
import { acceptedTurnFromWire, cancelOutcomeFromWire, permissionOutcomeFromWire } from './turn-words';

/**
 * The one place a message the app sends takes the wire's names, and gets its turn id (the idempotency key,
 * made once here when the caller gave none, so every retry below resends the same one).
 */
function postMessageBody(message: SendMessageInput): PostMessageBodyInput {
  return {
    content: message.content,
    turnId: message.turnId ?? randomUUID(),
    ...(message.firstTurn !== undefined ? { primerTurno: message.firstTurn } : {}),
    ...(message.permissionMode ? { permisos: message.permissionMode } : {}),
    ...(message.attachments ? { images: message.attachments } : {}),
  };
}

/** Turns and events (spec section): send, cancel, answer permission, pick the model, the SSE address. */
export function turnsApi(http: ApiRequest) {
  const r = apiRoutes;
  return {
    /** Commissions a turn (202). Every retry (503, 429, network) resends the same turnId, so it never duplicates. */
    sendMessage: (agentId: string, sessionId: string, message: SendMessageInput, call?: CallOptions) =>
      http.call(
        r.postMessage,
        { agentId, sessionId },
        {
          read: json(PostMessageAccepted.transform(acceptedTurnFromWire)),
          json: postMessageBody(message),
          resendable: true,
        },
        call,
      ),
    cancelTurn: (agentId: string, sessionId: string, call?: CallOptions) =>
      http.call(
        r.cancelTurn,
        { agentId, sessionId },
        { read: json(CancelResult.transform(cancelOutcomeFromWire)), resendable: true },
        call,
      ),
    /** A closed request answers ApiError code `no_abierto` (404). */
    answerPermission: (agentId: string, sessionId: string, answer: PermissionBody, call?: CallOptions) =>
      http.call(
        r.answerPermission,
        { agentId, sessionId },
        { read: json(PermissionResult.transform(permissionOutcomeFromWire)), json: answer, resendable: true },
        call,
      ),
    setModel: (agentId: string, sessionId: string, model: string, call?: CallOptions) =>
      http.call(r.setModel, { agentId, sessionId }, { read: none, json: { model }, resendable: true }, call),
    /** The SSE URL of a conversation, for the event stream client. */
    eventsUrl: (agentId: string, sessionId: string): string => http.url(r.getEvents, { agentId, sessionId }),
  };
}
