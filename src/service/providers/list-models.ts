import type { ProviderKind } from '../../shared/api/routes/model-providers';
import type { HandedModel } from '../model-agent/handoff';

/** Asking a provider for its models never holds a request longer than this. */
export const LIST_TIMEOUT_MS = 8000;

export type Listing =
  { ok: true; models: HandedModel[] } | { ok: false; code: 'key_refused' | 'unreachable'; message: string };

interface Target {
  kind: ProviderKind;
  /** What a person calls it, for the words of a refusal. */
  name: string;
  base: string;
  key?: string;
}

/** The request that lists a kind's models: the key goes in a header, never in the URL (it would be logged). */
function request(target: Target): { url: string; headers: Record<string, string> } {
  const { kind, base, key } = target;
  if (kind === 'anthropic')
    return {
      url: `${base}/models?limit=1000`,
      headers: { 'x-api-key': key ?? '', 'anthropic-version': '2023-06-01' },
    };
  if (kind === 'google')
    return { url: `${base}/models?pageSize=1000`, headers: { 'x-goog-api-key': key ?? '' } };
  if (kind === 'ollama') return { url: `${base}/api/tags`, headers: {} };
  return { url: `${base}/models`, headers: key ? { authorization: `Bearer ${key}` } : {} };
}

type Json = Record<string, unknown>;
const rows = (value: unknown): Json[] =>
  Array.isArray(value) ? value.filter((v): v is Json => typeof v === 'object' && v !== null) : [];
const text = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);
const count = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;

/** OpenAI lists every model of its API; only the ones that chat are of use to the agent. */
const NOT_CHAT =
  /embedding|tts|whisper|dall-e|moderation|davinci|babbage|image|transcribe|realtime|audio|search/;

/** OpenRouter says its prices per token as strings; per million, when both are numbers. */
function perMillion(pricing: unknown): HandedModel['price'] {
  const p = (pricing ?? {}) as Json;
  const input = Number(p['prompt']);
  const output = Number(p['completion']);
  if (!Number.isFinite(input) || !Number.isFinite(output) || p['prompt'] === undefined) return undefined;
  return { input: input * 1e6, output: output * 1e6 };
}

/** The models in a kind's answer, as the provider lists them (ids and names of its own). */
export function modelsOf(kind: ProviderKind, body: unknown): HandedModel[] {
  const json = (body ?? {}) as Json;
  const model = (
    id: string | undefined,
    label?: string,
    contextWindow?: number,
    price?: HandedModel['price'],
  ) =>
    id
      ? [{ id, label: label ?? id, ...(contextWindow ? { contextWindow } : {}), ...(price ? { price } : {}) }]
      : [];
  switch (kind) {
    case 'anthropic':
      return rows(json['data']).flatMap((m) => model(text(m['id']), text(m['display_name'])));
    case 'google':
      return rows(json['models'])
        .filter(
          (m) =>
            !Array.isArray(m['supportedGenerationMethods']) ||
            (m['supportedGenerationMethods'] as unknown[]).includes('generateContent'),
        )
        .flatMap((m) =>
          model(
            text(m['name'])?.replace(/^models\//, ''),
            text(m['displayName']),
            count(m['inputTokenLimit']),
          ),
        );
    case 'ollama':
      return rows(json['models']).flatMap((m) => model(text(m['name']) ?? text(m['model'])));
    case 'openrouter':
      return rows(json['data']).flatMap((m) =>
        model(text(m['id']), text(m['name']), count(m['context_length']), perMillion(m['pricing'])),
      );
    case 'openai':
      return rows(json['data']).flatMap((m) => {
        const id = text(m['id']);
        return id && !NOT_CHAT.test(id) ? model(id) : [];
      });
    default:
      return rows(json['data']).flatMap((m) => model(text(m['id'])));
  }
}

/** Why a request failed, in words without the URL's query or anything the server sent back. */
function causeOf(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError')
    return `no answer within ${LIST_TIMEOUT_MS / 1000} s`;
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/**
 * Asks the provider for its models. A redirect is not followed: a key is sent only to the address it was
 * given for. The words of a failure name the provider and the cause, never the key.
 */
export async function listModels(target: Target, signal?: AbortSignal): Promise<Listing> {
  const { url, headers } = request(target);
  const where = new URL(url).origin;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json', ...headers },
      redirect: 'manual',
      signal: AbortSignal.any([AbortSignal.timeout(LIST_TIMEOUT_MS), ...(signal ? [signal] : [])]),
    });
  } catch (error) {
    return {
      ok: false,
      code: 'unreachable',
      message: `${target.name} could not be reached at ${where} (${causeOf(error)}).`,
    };
  }
  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel();
    return {
      ok: false,
      code: 'key_refused',
      message: `${target.name} refused this key (${response.status}).`,
    };
  }
  if (!response.ok) {
    await response.body?.cancel();
    return {
      ok: false,
      code: 'unreachable',
      message: `${target.name} did not list its models at ${where} (${response.status}); check the address.`,
    };
  }
  try {
    return { ok: true, models: modelsOf(target.kind, await response.json()) };
  } catch {
    return {
      ok: false,
      code: 'unreachable',
      message: `${target.name} answered at ${where}, but not with a list of models; check the address.`,
    };
  }
}
