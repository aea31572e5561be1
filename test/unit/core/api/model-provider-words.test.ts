import { describe, expect, it } from 'vitest';
import {
  newProviderToWire,
  programChoiceToWire,
  programFromWire,
  providerFromWire,
} from '../../../../src/core/api/model-provider-words';
import {
  AddModelProviderBody,
  AgentPrograms,
  ModelProviders,
  NewModelProvider,
  SetAgentProgramBody,
} from '../../../../src/shared/api';

// The wire's Spanish names are read once, in core/api; every layer above sees one English name per concept.
describe('model providers in our words', () => {
  const wire = ModelProviders.parse({
    proveedores: [
      {
        id: 'p1',
        tipo: 'openai',
        nombre: 'OpenAI',
        origen: 'entorno',
        urlBase: null,
        clave: 'sk-…abcd',
        modelos: [{ id: 'gpt-4o', label: 'GPT-4o' }],
        error: null,
      },
      {
        id: 'p2',
        tipo: 'ollama',
        nombre: 'Ollama',
        origen: 'ollama',
        urlBase: 'http://127.0.0.1:11434',
        clave: null,
        modelos: [],
        error: 'Ollama could not be reached (ECONNREFUSED)',
      },
      {
        id: 'p3',
        tipo: 'anthropic',
        nombre: 'Work',
        origen: 'ajustes',
        urlBase: null,
        clave: 'sk-…wxyz',
        modelos: [],
        error: null,
      },
    ],
  });

  it('reads each field under its English name, and where each comes from', () => {
    const [env, found, added] = wire.proveedores.map(providerFromWire);
    expect(env).toEqual({
      id: 'p1',
      kind: 'openai',
      name: 'OpenAI',
      source: 'environment',
      baseUrl: null,
      maskedKey: 'sk-…abcd',
      models: [{ id: 'gpt-4o', label: 'GPT-4o' }],
      problem: null,
    });
    expect(found?.source).toBe('found');
    expect(found?.problem).toBe('Ollama could not be reached (ECONNREFUSED)');
    expect(added?.source).toBe('settings');
  });

  it('writes a new provider as the wire body, leaving out what was not given', () => {
    const body = newProviderToWire(
      NewModelProvider.parse({ kind: 'openai-compatible', key: 'k', baseUrl: 'http://127.0.0.1:9/v1' }),
    );
    expect(body).toEqual({ tipo: 'openai-compatible', clave: 'k', urlBase: 'http://127.0.0.1:9/v1' });
    expect(AddModelProviderBody.safeParse(body).success).toBe(true);
    expect(newProviderToWire({ kind: 'ollama' })).toEqual({ tipo: 'ollama' });
  });

  it('refuses a new provider with a field the wire does not know, or a base URL that is not one', () => {
    expect(NewModelProvider.safeParse({ kind: 'openai', key: 'k', tipo: 'openai' }).success).toBe(false);
    expect(NewModelProvider.safeParse({ kind: 'openai', baseUrl: 'not a url' }).success).toBe(false);
    expect(NewModelProvider.safeParse({ kind: 'mistery' }).success).toBe(false);
  });
});

describe('agent programs in our words', () => {
  it('reads a found and a missing program', () => {
    const wire = AgentPrograms.parse({
      programas: [
        {
          id: 'goose',
          nombre: 'Goose',
          comando: ['goose', 'acp'],
          encontrado: true,
          instalar: 'brew install block-goose-cli',
          necesita: 'a provider set up with `goose configure`',
          motor: 'engine-c',
        },
        {
          id: 'codex',
          nombre: 'Codex',
          comando: ['codex-acp'],
          encontrado: false,
          instalar: 'npm i -g @zed-industries/codex-acp',
          necesita: 'an OPENAI_API_KEY',
          motor: null,
        },
      ],
    });
    const [goose, codex] = wire.programas.map(programFromWire);
    expect(goose).toEqual({
      id: 'goose',
      name: 'Goose',
      command: ['goose', 'acp'],
      found: true,
      install: 'brew install block-goose-cli',
      needs: 'a provider set up with `goose configure`',
      engine: 'engine-c',
    });
    expect(codex?.found).toBe(false);
    expect(codex?.engine).toBeNull();
  });

  it('writes a choice as the wire body, `{}` giving the place back', () => {
    expect(programChoiceToWire({ command: ['my-agent', '--acp'], name: 'Mine' })).toEqual({
      comando: ['my-agent', '--acp'],
      nombre: 'Mine',
    });
    expect(programChoiceToWire({ program: 'gemini' })).toEqual({ programa: 'gemini' });
    expect(programChoiceToWire({})).toEqual({});
    expect(SetAgentProgramBody.safeParse(programChoiceToWire({ program: 'gemini' })).success).toBe(true);
  });
});
