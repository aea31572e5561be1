import { APICallError } from 'ai';
import { ProviderTimeout } from './timed-fetch';

/**
 * A provider's failure in words that name the provider and the cause, as the turn's error: a refused
 * key, a rate limit with its retry-after, a model that does not exist, a server that cannot be
 * reached, a request that timed out. The provider's own message is kept (keys never appear in it: we
 * only quote its error text, never our request).
 */
export function providerErrorWords(error: unknown, providerName: string, modelId: string): string {
  const timeout = findCause(error, (e): e is ProviderTimeout => e instanceof ProviderTimeout);
  if (timeout) {
    const seconds = Math.round(timeout.afterMs / 100) / 10;
    return timeout.phase === 'answer'
      ? `${providerName} did not answer within ${seconds} s; the request was given up. Try again, or check that the server is running.`
      : `${providerName} stopped sending for ${seconds} s in the middle of its reply; the request was given up.`;
  }
  const call = findCause(error, APICallError.isInstance);
  if (!call) return `${providerName} failed: ${messageOf(error)}`;
  const status = call.statusCode;
  const said = providerMessage(call.responseBody) ?? call.message;
  if (status === undefined) {
    const host = hostOf(call.url);
    return `${providerName} cannot be reached${host ? ` at ${host}` : ''} (${networkCause(call)}). Check the address and that the server is running.`;
  }
  if (status === 401 || status === 403) {
    return `${providerName} refused the key (${status}): ${said} Check the key in Settings → Models.`;
  }
  if (status === 429) {
    const after = retryAfter(call.responseHeaders);
    return `${providerName} is limiting requests (429)${after ? `; try again in ${after}` : '; try again in a moment'}. ${said}`;
  }
  if (status === 404) {
    return `${providerName} has no model "${modelId}" (404): ${said} Pick another model.`;
  }
  if (status >= 500) return `${providerName} had an error (${status}): ${said}`;
  return `${providerName} refused the request (${status}): ${said}`;
}

/** The error itself or one of its causes (the SDK wraps), of the wanted kind. */
function findCause<T>(error: unknown, is: (e: unknown) => e is T): T | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (is(e)) return e;
    const wrapped = e as { cause?: unknown; lastError?: unknown };
    e = wrapped.lastError ?? wrapped.cause;
  }
  return undefined;
}

/** The message in a provider's error body: `{error: {message}}` (OpenAI, Anthropic, Google) or `{error: "..."}` (Ollama). */
function providerMessage(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const message =
      typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof message === 'string' && message.trim()) return sentence(message.trim());
  } catch {
    // not JSON: a proxy's page, say the start of it
  }
  const text = body.replace(/\s+/g, ' ').trim().slice(0, 200);
  return text ? sentence(text) : undefined;
}

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

function retryAfter(headers: Record<string, string> | undefined): string | undefined {
  const ms = Number(headers?.['retry-after-ms']);
  if (Number.isFinite(ms) && ms > 0) return `${Math.ceil(ms / 1000)} s`;
  const value = headers?.['retry-after'];
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return `${Math.ceil(seconds)} s`;
  const at = Date.parse(value);
  return Number.isFinite(at) ? `${Math.max(1, Math.ceil((at - Date.now()) / 1000))} s` : undefined;
}

function hostOf(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).host : undefined;
  } catch {
    return undefined;
  }
}

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'the host name is not known',
  EAI_AGAIN: 'the host name could not be looked up',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  CERT_HAS_EXPIRED: 'its certificate has expired',
};

function networkCause(call: APICallError): string {
  let e: unknown = call.cause;
  for (let depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return NETWORK_WORDS[code] ?? code;
    e = (e as { cause?: unknown }).cause;
  }
  return messageOf(call.cause ?? call);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
