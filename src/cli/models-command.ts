import type { DeskHost } from '../core/host';
import type { AccountModelProvider } from '../shared/api';
import { agentModelId, modelName } from '../shared/words/model-ids';
import { dim, type CliIo } from './terminal';
import { terminalLine } from './terminal-text';

const sources: Record<AccountModelProvider['source'], string> = {
  environment: 'from the environment',
  found: 'found on this computer',
  settings: 'added in Settings',
};

/**
 * `agentdesk models`: the person's model providers (keys masked, as the service shows them) and the
 * models each lists, by the id `agentdesk chat --model` takes. Our service's extension: a server without
 * it is said to have none.
 */
export async function listModels(host: DeskHost, io: CliIo): Promise<number> {
  const result = await host.listModelProviders();
  if (!result.ok) {
    if (result.error.status === 404) {
      io.out('This server does not offer model providers: its agents use the models it chose.\n');
      return 0;
    }
    io.err(`${terminalLine(result.error.message)}\n`);
    return 1;
  }
  const providers = result.value;
  if (providers.length === 0) {
    io.out(
      'No model providers yet. Add one in the app (Settings → Models), or start AgentDesk with ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY or OLLAMA_HOST set.\n',
    );
    return 0;
  }
  for (const provider of providers) {
    const about = [
      sources[provider.source],
      provider.maskedKey ? `key ${provider.maskedKey}` : '',
      provider.baseUrl ?? '',
    ]
      .filter(Boolean)
      .map(terminalLine)
      .join(', ');
    io.out(`${terminalLine(provider.name)} (${about})\n`);
    if (provider.problem) io.out(`  ${terminalLine(provider.problem)}\n`);
    else if (provider.models.length === 0) io.out('  no models listed\n');
    for (const model of provider.models) {
      const id = agentModelId(providers, provider.id, model.id);
      io.out(`  ${terminalLine(id)}\t${terminalLine(modelName(model))}\n`);
    }
  }
  io.out(dim(io, 'Chat with one: agentdesk chat <agent> --model <id>\n'));
  return 0;
}
