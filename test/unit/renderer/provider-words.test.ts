import { describe, expect, it } from 'vitest';
import type { AccountModelProvider } from '../../../src/shared/api';
import {
  agentModelId,
  groupModels,
  kindWords,
  modelName,
  modelsCountWords,
  programPlaceWords,
  providerKinds,
  removable,
  sourceWords,
  splitCommand,
} from '../../../src/renderer/model/provider-words';
import { offeredEngines, onYourModels } from '../../../src/renderer/model/agent-words';

const provider = (over: Partial<AccountModelProvider>): AccountModelProvider => ({
  id: 'p',
  kind: 'openai',
  name: 'OpenAI',
  source: 'settings',
  baseUrl: null,
  maskedKey: 'sk-…abcd',
  models: [],
  problem: null,
  ...over,
});

describe('the words of Settings → Models', () => {
  it('offers the six kinds, asking a base URL only of another OpenAI-compatible server and no key of Ollama', () => {
    expect(providerKinds.map((k) => k.label)).toEqual([
      'Anthropic',
      'OpenAI',
      'Google',
      'OpenRouter',
      'Ollama',
      'Another OpenAI-compatible server',
    ]);
    expect(providerKinds.filter((k) => k.needsBaseUrl).map((k) => k.kind)).toEqual(['openai-compatible']);
    expect(providerKinds.filter((k) => !k.needsKey).map((k) => k.kind)).toEqual(['ollama']);
    expect(kindWords('google').label).toBe('Google');
  });

  it('says where a provider comes from, and only one added here can be removed here', () => {
    expect(sourceWords('environment')).toBe('From the service’s environment');
    expect(sourceWords('found')).toBe('Found running on this computer');
    expect(sourceWords('settings')).toBe('Added here');
    expect(removable(provider({ source: 'settings' }))).toBe(true);
    expect(removable(provider({ source: 'environment' }))).toBe(false);
    expect(removable(provider({ source: 'found' }))).toBe(false);
  });

  it('counts models, or gives the provider’s own reason', () => {
    expect(modelsCountWords(provider({ models: [{ id: 'a', label: 'A' }] }))).toBe('1 model');
    expect(
      modelsCountWords(
        provider({
          models: [
            { id: 'a', label: 'A' },
            { id: 'b', label: 'B' },
          ],
        }),
      ),
    ).toBe('2 models');
    expect(modelsCountWords(provider({}))).toBe('It lists no models.');
    expect(modelsCountWords(provider({ problem: 'OpenAI refused this key (401)' }))).toBe(
      'OpenAI refused this key (401)',
    );
  });

  it('gives a model the id the model agent gives it: the provider’s own, prefixed when an earlier provider has it', () => {
    const providers = [
      provider({ id: 'env', models: [{ id: 'gpt-4o', label: 'GPT-4o' }] }),
      provider({
        id: 'router',
        models: [
          { id: 'gpt-4o', label: 'GPT-4o' },
          { id: 'llama', label: 'Llama' },
        ],
      }),
    ];
    expect(agentModelId(providers, 'env', 'gpt-4o')).toBe('gpt-4o');
    expect(agentModelId(providers, 'router', 'gpt-4o')).toBe('router:gpt-4o');
    expect(agentModelId(providers, 'router', 'llama')).toBe('llama');
  });

  it('calls a model by its label, or by its id when the provider gave no label', () => {
    expect(modelName({ id: 'gpt-4o', label: 'GPT-4o' })).toBe('GPT-4o');
    expect(modelName({ id: 'llama3.2:3b', label: '' })).toBe('llama3.2:3b');
    expect(modelName({ id: 'qwen2.5' })).toBe('qwen2.5');
  });

  it('groups the model agent’s models by provider, in the order listed', () => {
    expect(
      groupModels([
        { id: 'claude', label: 'Claude Sonnet · Anthropic' },
        { id: 'gpt-4o', label: 'gpt-4o · OpenAI' },
        { id: 'haiku', label: 'Claude Haiku · Anthropic' },
        { id: 'plain', label: '' },
      ]),
    ).toEqual([
      {
        provider: 'Anthropic',
        models: [
          { id: 'claude', label: 'Claude Sonnet' },
          { id: 'haiku', label: 'Claude Haiku' },
        ],
      },
      { provider: 'OpenAI', models: [{ id: 'gpt-4o', label: 'gpt-4o' }] },
      { provider: '', models: [{ id: 'plain', label: 'plain' }] },
    ]);
  });

  it('splits a command line as a shell does, quotes keeping spaces', () => {
    expect(splitCommand('my-agent --acp')).toEqual(['my-agent', '--acp']);
    expect(splitCommand(`  "/opt/My Agent/run" --name 'a b' ''  `)).toEqual([
      '/opt/My Agent/run',
      '--name',
      'a b',
      '',
    ]);
    expect(splitCommand('   ')).toBeUndefined();
    expect(splitCommand('run "unclosed')).toBeUndefined();
  });

  it('says where a program runs without naming an engine id', () => {
    const base = { id: 'goose', name: 'Goose', command: ['goose', 'acp'], install: '', needs: '' };
    const words = [
      programPlaceWords({ ...base, found: true, engine: 'engine-c' }),
      programPlaceWords({ ...base, found: true, engine: null }),
      programPlaceWords({ ...base, found: false, engine: null }),
    ];
    expect(words).toEqual([
      'Offered in the studio’s engines (first program place)',
      'Found, but both program places are taken: choose it for one below',
      'Not installed',
    ]);
    for (const w of words) expect(w).not.toMatch(/engine-|house-lite/);
  });
});

describe('the studio’s engines', () => {
  const engines = ['house-lite', 'engine-b', 'engine-c', 'engine-d', 'engine-e'];
  const about = {
    about: {
      engines: [
        { id: 'house-lite', name: 'Built-in lite assistant', description: '', hasMachine: false },
        { id: 'engine-b', name: 'Demo agent (offline, answers by rule)', description: '', hasMachine: true },
        { id: 'engine-c', name: 'Goose', description: '', hasMachine: true },
        { id: 'engine-d', name: 'Spare', description: '', hasMachine: true, offered: false },
        {
          id: 'engine-e',
          name: 'AgentDesk agent, on your models',
          description: '',
          hasMachine: true,
          onYourModels: true,
        },
      ],
      tools: {},
    },
  };

  it('hides a place nobody fills, unless the agent runs on it; a spec-only server shows all five', () => {
    expect(offeredEngines(about, engines, 'engine-b')).toEqual([
      'house-lite',
      'engine-b',
      'engine-c',
      'engine-e',
    ]);
    expect(offeredEngines(about, engines, 'engine-d')).toEqual(engines);
    expect(offeredEngines({}, engines, 'engine-b')).toEqual(engines);
  });

  it('knows which engine thinks with the person’s models', () => {
    expect(onYourModels(about, 'engine-e')).toBe(true);
    expect(onYourModels(about, 'engine-b')).toBe(false);
    expect(onYourModels(undefined, 'engine-e')).toBe(false);
  });
});
