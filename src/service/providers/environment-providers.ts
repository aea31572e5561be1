import type { ProviderKind } from '../../shared/api/routes/model-providers';
import { KINDS, normalBase, usableBase } from './provider-kinds';

/** A provider the service knows without a person adding it: from its environment, or a running Ollama. */
export interface FoundProvider {
  id: string;
  kind: ProviderKind;
  name: string;
  origin: 'entorno' | 'ollama';
  base: string;
  key?: string;
}

/** Where Ollama listens when nobody says otherwise. */
export const OLLAMA_DEFAULT = 'http://127.0.0.1:11434';

/**
 * The providers named by the standard variables the providers' own SDKs read, as the service started:
 * `ANTHROPIC_API_KEY` (+ `ANTHROPIC_BASE_URL`), `OPENAI_API_KEY` (+ `OPENAI_BASE_URL`, any server of that
 * protocol), `GEMINI_API_KEY` or `GOOGLE_API_KEY`, and `OLLAMA_HOST`. A base URL that is not http(s) is left out.
 */
export function environmentProviders(env: NodeJS.ProcessEnv): FoundProvider[] {
  const found: FoundProvider[] = [];
  const add = (kind: ProviderKind, key: string | undefined, base: string | undefined) => {
    const url = normalBase(kind, base);
    if (!url || !usableBase(url)) return;
    // Another server is named by its address, so two of them are told apart.
    const name =
      kind === 'openai-compatible' ? `${KINDS[kind].name} (${new URL(url).host})` : KINDS[kind].name;
    found.push({ id: `env-${kind}`, kind, name, origin: 'entorno', base: url, ...(key ? { key } : {}) });
  };
  const value = (name: string) => env[name]?.trim() || undefined;
  const anthropic = value('ANTHROPIC_API_KEY');
  if (anthropic) add('anthropic', anthropic, value('ANTHROPIC_BASE_URL'));
  const openai = value('OPENAI_API_KEY');
  const openaiBase = value('OPENAI_BASE_URL');
  // A base URL other than OpenAI's own is another server of its protocol (vLLM, LM Studio, OpenRouter…).
  if (openai) add(openAiKindOf(openaiBase), openai, openaiBase);
  const google = value('GEMINI_API_KEY') ?? value('GOOGLE_API_KEY');
  if (google) add('google', google, undefined);
  const ollama = value('OLLAMA_HOST');
  if (ollama) add('ollama', undefined, ollama);
  return found;
}

/** OpenAI's own address, OpenRouter's, or another server of OpenAI's protocol (vLLM, LM Studio, llama.cpp…). */
function openAiKindOf(base: string | undefined): ProviderKind {
  if (!base || /^https:\/\/api\.openai\.com(\/|$)/.test(base)) return 'openai';
  if (/^https:\/\/openrouter\.ai(\/|$)/.test(base)) return 'openrouter';
  return 'openai-compatible';
}
