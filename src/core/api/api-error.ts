/**
 * Every failed API call becomes an ApiError value: a machine code, the HTTP status
 * (0 when no response came), one readable sentence for the person, and the raw body.
 */
export interface ApiError {
  /** The body's `error` code (e.g. `reiniciando`, `agente_no_acp`), or one of ours: `unauthorized`, `forbidden`,
   * `not_found`, `signed_out`, `network`, `cancelled`, `invalid_response`, `invalid_request`, `http_<status>`. */
  code: string;
  status: number;
  message: string;
  body?: unknown;
  /** With code `network`, when no connection could be made at all (refused, no route, unknown name): the server's origin. */
  unreachable?: string;
  /** With code `agente_no_acp`: the engine that has no machine of its own (the body's `motor`). */
  engine?: string;
}

const CODE_SENTENCES: Record<string, (body: Record<string, unknown>) => string> = {
  reiniciando: () => 'The service is restarting. Please try again in a moment.',
  agente_no_acp: (body) =>
    `This agent's engine${typeof body.motor === 'string' ? ` (${body.motor})` : ''} has no machine of its own, so this isn't available for it.`,
  turno_en_curso: () => 'A turn is already running in that session. Wait for it to finish.',
  no_abierto: () => 'That permission request is no longer open.',
  not_found: () => "That wasn't found. It may have been deleted, or it isn't yours.",
  method_not_allowed: () => 'The service does not allow that here.',
  body_invalido: () => 'The service did not accept what was sent.',
  token_invalido: () => 'The service did not accept that device token.',
  quota_exhausted: () => 'Your allowance is used up.',
  trial_expired: () => 'Your trial has ended.',
  own_key_required: () => 'This model needs your own key.',
};

const STATUS_SENTENCES: Record<number, string> = {
  400: 'The service did not accept the request.',
  401: 'Your sign-in is no longer valid. Please sign in again.',
  402: 'Your plan does not cover this.',
  403: "Your sign-in doesn't include permission for this. Sign in again to grant it.",
  404: "That wasn't found. It may have been deleted, or it isn't yours.",
  405: 'The service does not allow that here.',
  409: "That can't be done right now.",
  413: 'That is too large for the service.',
  429: 'The service is busy. Please try again in a moment.',
  // Only PATCH agent's 502 means "saved, not taken" (agent-config-api says so); elsewhere it is a gateway's.
  502: 'The server could not finish this (HTTP 502). Please try again in a moment.',
  503: 'The service is unavailable right now. Please try again in a moment.',
};

const STATUS_CODES: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'too_large',
  429: 'too_many_requests',
  503: 'unavailable',
};

function asRecord(body: unknown): Record<string, unknown> | undefined {
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : undefined;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return trimmed;
  const capital = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** Builds the ApiError for an HTTP error response from its status and (JSON or text) body. */
export function apiErrorFromResponse(status: number, body: unknown): ApiError {
  const record = asRecord(body);
  const errorField = typeof record?.error === 'string' ? record.error : undefined;
  const code =
    errorField ??
    (record?.motivo === 'no_abierto' ? 'no_abierto' : (STATUS_CODES[status] ?? `http_${status}`));
  const given = [record?.detalle, record?.message, record?.error_description].find(
    (value): value is string => typeof value === 'string' && value.trim() !== '',
  );
  let message: string;
  if (given) message = sentence(given);
  else if (CODE_SENTENCES[code] && record) message = CODE_SENTENCES[code](record);
  // An `error` that reads like words (e.g. "audio demasiado grande") is already a message.
  else if (errorField && errorField.includes(' ')) message = sentence(errorField);
  else message = STATUS_SENTENCES[status] ?? `The service had a problem (HTTP ${status}). Please try again.`;
  const engine = code === 'agente_no_acp' && typeof record?.motor === 'string' ? record.motor : undefined;
  return {
    code,
    status,
    message,
    ...(engine ? { engine } : {}),
    ...(body === undefined || body === '' ? {} : { body }),
  };
}

/** What a status means when the server gives no words of its own. */
export const statusSentence = (status: number): string | undefined => STATUS_SENTENCES[status];

/** The spec's 502 on PATCH agent: the change was saved, but the machine did not take it. */
export const NOT_TAKEN_BY_MACHINE =
  "The change was saved, but the agent's machine didn't take it. Try restarting the agent.";

/** A 3xx other than 304 (the answer a conditional request expects). */
export const isRedirect = (status: number): boolean => status >= 300 && status < 400 && status !== 304;

/** A redirect is not followed (it would carry the request's data elsewhere): it is said in words. */
export function redirectedError(status: number, location: string | null, requestUrl: string): ApiError {
  let target: string | undefined;
  try {
    target = location ? new URL(location, requestUrl).toString().slice(0, 300) : undefined;
  } catch {
    target = undefined; // a Location that is not a URL names nowhere
  }
  return {
    code: 'redirected',
    status,
    message: target
      ? `The server sent this request on to ${target}. AgentDesk does not follow redirects with your data; if that is the server's real address, use it instead.`
      : `The server answered with a redirect (HTTP ${status}), which AgentDesk does not follow with your data.`,
  };
}

/** Connection failures where nothing answered at all (as opposed to a connection dropped midway). */
const noConnection = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

export function networkError(baseUrl: string, cause: unknown): ApiError {
  const detail = cause instanceof Error && cause.cause instanceof Error ? cause.cause.message : String(cause);
  const causeCode =
    cause instanceof Error ? (cause.cause as { code?: unknown } | undefined)?.code : undefined;
  return {
    code: 'network',
    status: 0,
    ...(typeof causeCode === 'string' && noConnection.has(causeCode)
      ? { unreachable: new URL(baseUrl).origin }
      : {}),
    message: `Couldn't reach the service at ${new URL(baseUrl).origin}. Check that it is running and try again.`,
    body: detail,
  };
}

/** A call the server did not finish within its deadline. */
export function timedOutError(ms: number): ApiError {
  const seconds = Math.max(1, Math.round(ms / 1000));
  const span =
    seconds % 60 === 0 && seconds >= 120
      ? `${seconds / 60} minutes`
      : `${seconds} second${seconds === 1 ? '' : 's'}`;
  return {
    code: 'timeout',
    status: 0,
    message: `The server did not answer within ${span}. Check that it is running, then try again.`,
  };
}

export const cancelledError: ApiError = {
  code: 'cancelled',
  status: 0,
  message: 'The request was cancelled.',
};
