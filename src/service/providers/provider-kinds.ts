import type { ProviderKind } from '../../shared/api/routes/model-providers';

/** What the service knows of each kind of provider: its name, its default address, and whether it takes a key. */
export interface KindInfo {
  name: string;
  /** The API's base URL when none is given (the models list is under it); null: the person must give one. */
  defaultBase: string | null;
  takesKey: boolean;
}

export const KINDS: Record<ProviderKind, KindInfo> = {
  anthropic: { name: 'Anthropic', defaultBase: 'https://api.anthropic.com/v1', takesKey: true },
  openai: { name: 'OpenAI', defaultBase: 'https://api.openai.com/v1', takesKey: true },
  google: {
    name: 'Google',
    defaultBase: 'https://generativelanguage.googleapis.com/v1beta',
    takesKey: true,
  },
  openrouter: { name: 'OpenRouter', defaultBase: 'https://openrouter.ai/api/v1', takesKey: true },
  ollama: { name: 'Ollama', defaultBase: 'http://127.0.0.1:11434', takesKey: false },
  'openai-compatible': { name: 'OpenAI-compatible server', defaultBase: null, takesKey: true },
};

/**
 * The base URL requests go to, in the form each kind's SDK takes: Anthropic's ends in `/v1` (its own SDK's
 * `ANTHROPIC_BASE_URL` is the bare host, so `/v1` is added); Ollama's is its host (`OLLAMA_HOST` may lack the
 * scheme or name `0.0.0.0`, the address it listens on, which is reached at 127.0.0.1). No trailing slash.
 */
export function normalBase(kind: ProviderKind, given: string | undefined): string | null {
  const raw = given?.trim() || KINDS[kind].defaultBase;
  if (!raw) return null;
  let text = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  text = text.replace(/\/+$/, '');
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  if (kind === 'ollama' && (url.hostname === '0.0.0.0' || url.hostname === '[::]'))
    url.hostname = '127.0.0.1';
  const portGiven = /^[a-z][a-z0-9+.-]*:\/\/[^/]*:\d+/i.test(text);
  if (kind === 'ollama' && !portGiven) url.port = '11434';
  let base = url.href.replace(/\/+$/, '');
  if (kind === 'anthropic' && !/\/v1$/.test(base)) base = `${base}/v1`;
  return base;
}

/** A base URL the service may call: http or https, with no user name or password in it. */
export function usableBase(base: string): boolean {
  if (!URL.canParse(base)) return false;
  const url = new URL(base);
  return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
}

/** "sk-…abcd": enough of a key to tell keys apart, never enough to use one. */
export function maskKey(key: string): string {
  const tail = key.length >= 12 ? key.slice(-4) : '';
  const head = /^[a-z]{2,5}-/i.exec(key)?.[0] ?? '';
  return `${head}…${tail}`;
}
