import path from 'node:path';

/** The path the API shows for the workspace: the agent's machine sees its workspace here. */
export const MACHINE_WORKSPACE = '/data/work';

/**
 * Skills live inside the workspace, in the cross-agent `.agents/skills/<slug>/` folder, so the agent
 * process (cwd = workspace) sees them. The files routes treat this folder as reserved: it is managed
 * through the skills routes only and left out of file listings, so a sync client never sees it twice.
 */
export const SKILLS_DIR = '.agents/skills';

/** Where one agent's things live on the service's disk. */
export interface AgentLayout {
  /** The agent's persistent disk (the machine's `/data`). */
  root: string;
  /** The workspace (`/data/work`): the agent process's working folder. */
  work: string;
  /** Installed skills of a machine agent, inside the workspace. */
  workSkills: string;
  /** Knowledge files of a machine agent, inside the workspace. */
  workKnowledge: string;
  /** Bundle of an agent without a machine: `skills/` and `knowledge/` held by the service. */
  bundle: string;
  bundleSkills: string;
  bundleKnowledge: string;
  /** The machine configuration file (extensions, MCP servers, prompt), outside the workspace. */
  machineConfig: string;
}

export function agentLayout(dataDir: string, agentId: string): AgentLayout {
  if (!/^[A-Za-z0-9_-]+$/.test(agentId)) throw new Error(`unsafe agent id: ${agentId}`);
  const root = path.join(dataDir, 'agents', agentId);
  const work = path.join(root, 'work');
  const bundle = path.join(root, 'bundle');
  return {
    root,
    work,
    workSkills: path.join(work, ...SKILLS_DIR.split('/')),
    workKnowledge: path.join(work, 'knowledge'),
    bundle,
    bundleSkills: path.join(bundle, 'skills'),
    bundleKnowledge: path.join(bundle, 'knowledge'),
    machineConfig: path.join(root, 'machine', 'config.json'),
  };
}
