import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { modelChoices, type HandedModel, type HandedProvider, type Handoff } from './handoff';
import { providerTimeouts, timedFetch } from './timed-fetch';

/** The model a session thinks with: its provider (with the key) and the model's facts. */
export interface ChosenModel {
  provider: HandedProvider;
  model: HandedModel;
  language: LanguageModel;
}

export const NO_PROVIDER = 'No model provider is set up: add one in Settings → Models.';

/**
 * The session's model among the providers handed over now, or the words saying why there is none:
 * no provider at all, providers that list no model (each one's reason), or the chosen model's provider
 * removed since.
 */
export function chooseModel(handoff: Handoff, modelId: string | null): ChosenModel | string {
  const choices = modelChoices(handoff.providers);
  if (choices.length === 0) {
    // A provider is set up but lists no model now: its own words say why (a refused key, a dead server).
    const problems = handoff.providers.flatMap((p) => (p.problem ? [p.problem] : []));
    return problems.length ? `${problems.join(' ')} Check it in Settings → Models.` : NO_PROVIDER;
  }
  const choice = modelId === null ? choices[0] : choices.find((c) => c.id === modelId);
  if (!choice) {
    return `The model ${modelId} is no longer offered (its provider was removed or no longer lists it): pick another model, or add its provider again in Settings → Models.`;
  }
  const provider = handoff.providers.find((p) => p.id === choice.providerId)!;
  return { provider, model: choice.model, language: languageModel(provider, choice.model.id) };
}

/** Ollama's OpenAI-compatible API is under `/v1` of its host (OLLAMA_HOST gives the host only). */
function ollamaBase(baseURL: string | undefined): string {
  const host = (baseURL ?? 'http://127.0.0.1:11434').replace(/\/+$/, '');
  return host.endsWith('/v1') ? host : `${host}/v1`;
}

/** One AI SDK model for a provider kind; every request through the timed fetch. */
export function languageModel(provider: HandedProvider, modelId: string): LanguageModel {
  const fetch = timedFetch(providerTimeouts());
  const apiKey = provider.apiKey;
  const baseURL = provider.baseURL;
  const compatible = (name: string, url: string) =>
    createOpenAICompatible({ name, baseURL: url, apiKey, fetch, includeUsage: true }).chatModel(modelId);
  switch (provider.kind) {
    case 'anthropic':
      return createAnthropic({ apiKey, baseURL, fetch })(modelId);
    case 'openai':
      // OpenAI itself through its own provider (chat completions); a server of the same protocol at
      // another address (OPENAI_BASE_URL: vLLM, LM Studio, llama.cpp...) as the compatible one, which
      // also reads the `reasoning_content` those servers stream.
      if (baseURL && !isOpenAi(baseURL)) return compatible('openai', baseURL);
      return createOpenAI({ apiKey, baseURL, fetch }).chat(modelId);
    case 'google':
      return createGoogleGenerativeAI({ apiKey, baseURL, fetch })(modelId);
    case 'openrouter':
      return compatible('openrouter', baseURL ?? 'https://openrouter.ai/api/v1');
    case 'ollama':
      return compatible('ollama', ollamaBase(baseURL));
    case 'openai-compatible':
      if (!baseURL) throw new Error(`${provider.name} has no base URL.`);
      return compatible('openai-compatible', baseURL);
  }
}

function isOpenAi(baseURL: string): boolean {
  try {
    return new URL(baseURL).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}
