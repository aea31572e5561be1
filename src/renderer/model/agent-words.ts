import type { AgentConfig } from '../../shared/api';

/** The model's label when the agent lists it, else its id. */
export function modelLabel(config: Pick<AgentConfig, 'model' | 'models'> | undefined): string | undefined {
  if (!config?.model) return undefined;
  return config.models?.find((m) => m.id === config.model)?.label || config.model;
}
