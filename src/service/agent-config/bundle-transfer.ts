import type { AppliedBundle, Bundle } from '../../shared/api';
import type { AgentRecord } from '../identity/agents';
import type { AgentConfigService } from './agent-config-service';
import { assembleBundle, namedSkillSlugs, planBundle } from './bundle';
import type { AgentConfigStore } from './config-store';
import { exclusive } from '../../shared/timing/exclusive';
import { replaceKnowledge } from './knowledge-replace';
import { resolveInside } from '../workspace/workspace-paths';

export interface BundleTransferDeps {
  service: AgentConfigService;
  store: AgentConfigStore;
  restart(agentId: string, engine: string): Promise<{ restarted: boolean }>;
}

export type BundleApplied = { ok: true; result: AppliedBundle } | { ok: false; tooLarge: string };

/**
 * GET and POST bundle: the agent's prompt, skills, knowledge and MCP list as one set of files (base64 in
 * JSON), and the same set taken back as the whole configuration. Path and skill errors are thrown.
 */
export function createBundleTransfer(deps: BundleTransferDeps) {
  const { service, store } = deps;

  async function exportBundle(agent: AgentRecord): Promise<Bundle> {
    const settings = await store.read(agent.id);
    const entries = await assembleBundle({
      prompt: settings.prompt,
      mcp: settings.mcp,
      skills: service.skillsOf(agent.id, agent.engine),
      knowledgeBase: service.knowledgeBaseOf(agent.id, agent.engine),
    });
    return {
      layout: 'dir',
      files: entries.map((e) => ({ path: e.path, contentBase64: Buffer.from(e.bytes).toString('base64') })),
    };
  }

  /** One bundle of an agent at a time: two would delete and write the same knowledge and skills together. */
  const applyBundle = (agent: AgentRecord, files: Bundle['files']): Promise<BundleApplied> =>
    exclusive(`bundle:${agent.id}`, () => applyBundleNow(agent, files));

  /** Nothing changes when a file is over 10 MB; otherwise what the bundle lacks is removed. */
  async function applyBundleNow(agent: AgentRecord, files: Bundle['files']): Promise<BundleApplied> {
    const planned = planBundle(files);
    if (!planned.ok) return { ok: false, tooLarge: planned.tooLarge };
    const { plan } = planned;
    const settings = await store.read(agent.id);
    const mcpChanged = plan.mcp !== null && JSON.stringify(plan.mcp) !== JSON.stringify(settings.mcp);
    if (plan.prompt !== null) settings.prompt = plan.prompt;
    if (plan.mcp !== null) settings.mcp = plan.mcp;
    // Resolved first: a knowledge folder that is a link refuses the bundle before anything changes.
    const knowledge = service.knowledgeBaseOf(agent.id, agent.engine);
    const folder = knowledge.parse('knowledge');
    const existing = await resolveInside(knowledge.root, folder);
    const skills = service.skillsOf(agent.id, agent.engine);
    const named = namedSkillSlugs(files);
    const removedSkills: string[] = [];
    for (const skill of await skills.list()) {
      if (!named.has(skill.slug)) {
        await skills.remove(skill.slug);
        removedSkills.push(skill.slug);
      }
    }
    for (const [slug, skill] of plan.skills) await skills.install(slug, skill.markdown, skill.assets);
    await replaceKnowledge(knowledge, existing.stat, plan.knowledge);
    await store.write(agent.id, settings);
    await service.writeMachine(agent, settings);
    let restartNote = '';
    if (mcpChanged && service.hasMachine(agent.engine)) {
      const { restarted } = await deps.restart(agent.id, agent.engine);
      restartNote = restarted
        ? ' The MCP list changed, so the agent was restarted.'
        : ' The MCP list changed, but the agent did not restart; retry POST restart.';
    }
    const note =
      'The posted files were taken as the whole bundle: what it lacks was removed' +
      (removedSkills.length ? ` (skills: ${removedSkills.join(', ')})` : '') +
      '.' +
      restartNote +
      (plan.reasons.length ? ` Ignored: ${plan.reasons.join(' ')}` : '');
    return { ok: true, result: { applied: plan.applied, ignored: plan.ignored, note } };
  }

  return { exportBundle, applyBundle };
}
