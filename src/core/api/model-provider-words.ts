import type {
  AccountAgentProgram,
  AccountModelProvider,
  AddModelProviderBody,
  AgentProgram,
  AgentProgramChoice,
  ModelProvider,
  NewModelProvider,
  ProviderSource,
  SetAgentProgramBody,
} from '../../shared/api';

/** The wire's model provider and agent program words -> ours (shared/api/model-provider.ts), read once here. */

const sources: Record<ModelProvider['origen'], ProviderSource> = {
  entorno: 'environment',
  ollama: 'found',
  ajustes: 'settings',
};

export function providerFromWire(wire: ModelProvider): AccountModelProvider {
  return {
    id: wire.id,
    kind: wire.tipo,
    name: wire.nombre,
    source: sources[wire.origen],
    baseUrl: wire.urlBase,
    maskedKey: wire.clave,
    models: wire.modelos.map((m) => ({ id: m.id, label: m.label })),
    problem: wire.error,
  };
}

export function newProviderToWire(provider: NewModelProvider): AddModelProviderBody {
  return {
    tipo: provider.kind,
    ...(provider.key !== undefined ? { clave: provider.key } : {}),
    ...(provider.baseUrl !== undefined ? { urlBase: provider.baseUrl } : {}),
    ...(provider.name !== undefined ? { nombre: provider.name } : {}),
  };
}

export function programFromWire(wire: AgentProgram): AccountAgentProgram {
  return {
    id: wire.id,
    name: wire.nombre,
    command: wire.comando,
    found: wire.encontrado,
    install: wire.instalar,
    needs: wire.necesita,
    engine: wire.motor,
  };
}

export function programChoiceToWire(choice: AgentProgramChoice): SetAgentProgramBody {
  return {
    ...(choice.program !== undefined ? { programa: choice.program } : {}),
    ...(choice.command !== undefined ? { comando: choice.command } : {}),
    ...(choice.name !== undefined ? { nombre: choice.name } : {}),
  };
}
