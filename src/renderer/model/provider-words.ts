import type {
  AccountAgentProgram,
  AccountModelProvider,
  ProgramEngine,
  ProviderKind,
  ProviderSource,
} from '../../shared/api';

import { modelName } from '../../shared/words/model-ids';

export { agentModelId, modelName } from '../../shared/words/model-ids';

/** What a person is asked for each kind of provider, in the order Settings offers them. */
export interface KindWords {
  kind: ProviderKind;
  label: string;
  /** The kind takes a key (all but Ollama). */
  needsKey: boolean;
  /** The kind needs a base URL (only another OpenAI-compatible server); others take one optionally. */
  needsBaseUrl: boolean;
  /** Where a key comes from, or what the address looks like. */
  hint: string;
}

export const providerKinds: readonly KindWords[] = [
  {
    kind: 'anthropic',
    label: 'Anthropic',
    needsKey: true,
    needsBaseUrl: false,
    hint: 'A key from console.anthropic.com (it starts with sk-ant-).',
  },
  {
    kind: 'openai',
    label: 'OpenAI',
    needsKey: true,
    needsBaseUrl: false,
    hint: 'A key from platform.openai.com (it starts with sk-).',
  },
  {
    kind: 'google',
    label: 'Google',
    needsKey: true,
    needsBaseUrl: false,
    hint: 'A Gemini API key from aistudio.google.com.',
  },
  {
    kind: 'openrouter',
    label: 'OpenRouter',
    needsKey: true,
    needsBaseUrl: false,
    hint: 'A key from openrouter.ai (it starts with sk-or-).',
  },
  {
    kind: 'ollama',
    label: 'Ollama',
    needsKey: false,
    needsBaseUrl: false,
    hint: 'No key: give the address only if Ollama is not at http://127.0.0.1:11434.',
  },
  {
    kind: 'openai-compatible',
    label: 'Another OpenAI-compatible server',
    needsKey: true,
    needsBaseUrl: true,
    hint: 'vLLM, LM Studio, llama.cpp’s server…: its address (ending in /v1) and its key.',
  },
];

export const kindWords = (kind: ProviderKind): KindWords =>
  providerKinds.find((k) => k.kind === kind) ?? providerKinds[providerKinds.length - 1]!;

const sources: Record<ProviderSource, string> = {
  environment: 'From the service’s environment',
  found: 'Found running on this computer',
  settings: 'Added here',
};

/** Where a provider comes from, in words. */
export const sourceWords = (source: ProviderSource): string => sources[source];

/** Only providers added here can be removed here; the others come back at the next start. */
export const removable = (provider: AccountModelProvider): boolean => provider.source === 'settings';

/** "3 models", "1 model", or the provider's own reason when it could not list them. */
export function modelsCountWords(provider: AccountModelProvider): string {
  if (provider.problem) return provider.problem;
  const n = provider.models.length;
  return n === 0 ? 'It lists no models.' : `${n} model${n === 1 ? '' : 's'}`;
}

export interface ModelGroup {
  /** The provider's name; '' for models that name none. */
  provider: string;
  models: { id: string; label: string }[];
}

/**
 * An agent's models grouped by provider, in the order listed, for a picker. The model agent labels each
 * "gpt-4o · OpenAI"; the part after the last " · " is its provider, the part before the option's text.
 */
export function groupModels(models: readonly { id: string; label: string }[]): ModelGroup[] {
  const groups: ModelGroup[] = [];
  for (const model of models) {
    const cut = model.label.lastIndexOf(' · ');
    const provider = cut > 0 ? model.label.slice(cut + 3) : '';
    const label = cut > 0 ? model.label.slice(0, cut) : modelName(model);
    const group = groups.find((g) => g.provider === provider);
    if (group) group.models.push({ id: model.id, label });
    else groups.push({ provider, models: [{ id: model.id, label }] });
  }
  return groups;
}

/** The two places agent programs run in, as a person reads them (never the engine ids). */
export const programPlaces: readonly { engine: ProgramEngine; label: string }[] = [
  { engine: 'engine-c', label: 'First program place' },
  { engine: 'engine-d', label: 'Second program place' },
];

export const placeLabel = (engine: ProgramEngine): string =>
  programPlaces.find((p) => p.engine === engine)?.label ?? 'A program place';

/** Where a found program runs, in words. */
export function programPlaceWords(program: AccountAgentProgram): string {
  if (!program.found) return 'Not installed';
  return program.engine
    ? `Offered in the studio’s engines (${placeLabel(program.engine).toLowerCase()})`
    : 'Found, but both program places are taken: choose it for one below';
}

/**
 * A command line as words, the way a shell splits it: spaces separate, single or double quotes keep
 * spaces inside one word. Undefined for an unclosed quote or nothing at all.
 */
export function splitCommand(line: string): string[] | undefined {
  const words: string[] = [];
  let word = '';
  let quote: '"' | "'" | null = null;
  let started = false;
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = null;
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      started = true;
    } else if (/\s/.test(ch)) {
      if (started) words.push(word);
      word = '';
      started = false;
    } else {
      word += ch;
      started = true;
    }
  }
  if (quote) return undefined;
  if (started) words.push(word);
  return words.length ? words : undefined;
}
