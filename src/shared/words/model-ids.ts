/**
 * The id the service's model agent gives one provider's model among all the person's providers (its rule:
 * service/model-agent/handoff.ts `modelChoices`): the provider's own id, or `<providerId>:<id>` when an
 * earlier provider already offers that id. The app and `agentdesk models` show and send this id.
 */
export function agentModelId(
  providers: readonly { id: string; models: readonly { id: string }[] }[],
  providerId: string,
  modelId: string,
): string {
  const taken = new Set<string>();
  for (const provider of providers) {
    for (const model of provider.models) {
      const id = taken.has(model.id) ? `${provider.id}:${model.id}` : model.id;
      if (provider.id === providerId && model.id === modelId) return id;
      taken.add(id);
    }
  }
  return modelId;
}

/** What a model is called on screen: its label, or its id when a provider gave it none. */
export function modelName(model: { id: string; label?: string }): string {
  return model.label || model.id;
}
