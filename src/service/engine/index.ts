/** The engine layer: ACP machines per agent. Contract in `./types`. */
export * from './types';
export { createEngineHost } from './engine-host';
export { agentWorkspaceDir } from '../workspace/agent-folders';
export { demoAgentCommand } from './agent-command';
