import type { ApiClient } from '../../api/api-client';
import { unwrap } from './api-remote-error';
import { BoxRemote } from './box-remote';
import { BundleRemote } from './bundle-remote';
import { withDeadline } from './request-deadline';
import type { RemoteSide } from '../plan/remote-side';

export interface AgentRemote {
  remote: RemoteSide;
  name: string;
  storage: 'box' | 'bundle';
}

/** Picks the remote side from the agent's `storage`: its own machine (box) or a bundle held by the service. */
export async function remoteForAgent(api: ApiClient, agentId: string, root: string): Promise<AgentRemote> {
  const config = unwrap(
    await withDeadline((o) => api.getAgentConfig(agentId, { fields: ['name', 'storage'] }, o)),
    'Reading the agent',
  );
  const storage = config.storage === 'bundle' ? 'bundle' : 'box';
  const remote =
    storage === 'bundle' ? new BundleRemote(api, agentId) : new BoxRemote({ api, agentId, root });
  return { remote, name: config.name ?? agentId, storage };
}
