import { rm } from 'node:fs/promises';
import type { NewAgent } from '../../shared/api';
import type { EngineHost } from '../engine/types';
import type { Identity } from '../identity';
import { refuse, success, type Outcome, type Refusal } from '../outcome';
import { FIRST_AGENT, type AgentRecord } from '../identity/agents';
import type { ConversationsArea } from '../turns/conversations-area';
import type { AgentConfigArea } from './agent-config-area';
import { installSkill } from './skill-install';
import { startingPoint } from './starting-points';

/** What making and deleting an agent touches (the service context gives it). */
export interface AgentLifecycleDeps {
  identity: Pick<Identity, 'agents'>;
  engines: Pick<EngineHost, 'stop'>;
  conversations: Pick<ConversationsArea, 'store' | 'manager'>;
  agentConfig: Pick<AgentConfigArea, 'service'>;
}

/** Enough for anyone's own computer; a bound keeps one account from filling the disk with agent folders. */
export const MAX_AGENTS_PER_PERSON = 50;

/** Why an agent was not made: no such starting point, or the account holds its maximum. */
export type CreateAgentRefusal = 'unknown_starting_point' | 'too_many_agents';
export type CreateAgentOutcome = Outcome<AgentRecord, CreateAgentRefusal>;

/**
 * Makes an agent (our extension): a machine agent on the first agent's engine, seeded by the same listeners
 * as any agent (settings, workspace), then given a starting point's prompt, starters and catalog skills.
 */
export async function createAgent(
  ctx: AgentLifecycleDeps,
  personId: string,
  wanted: NewAgent,
): Promise<CreateAgentOutcome> {
  const recipe = wanted.startingPoint === undefined ? null : startingPoint(wanted.startingPoint);
  if (wanted.startingPoint !== undefined && !recipe)
    return refuse(
      'unknown_starting_point',
      `"${wanted.startingPoint}" is not a starting point here; GET the starting points for the list.`,
    );
  if ((await ctx.identity.agents.list(personId)).length >= MAX_AGENTS_PER_PERSON)
    return refuse(
      'too_many_agents',
      `An account holds at most ${MAX_AGENTS_PER_PERSON} agents; delete one first.`,
    );
  const agent = await ctx.identity.agents.create(personId, {
    name: wanted.name.trim(),
    engine: FIRST_AGENT.engine,
    protocol: FIRST_AGENT.protocol,
  });
  if (recipe) {
    const { service } = ctx.agentConfig;
    await service.patch(agent, { prompt: recipe.prompt, starters: recipe.starters });
    const skills = service.skillsOf(agent.id, agent.engine);
    for (const slug of recipe.skills) await installSkill(skills, slug, { fromCatalog: true });
  }
  return success((await ctx.identity.agents.find(agent.id)) ?? agent);
}

const LAST_AGENT = 'This is the account’s only agent; make another before deleting it.';

/** Why an agent was not deleted: not the person's, their only one, or a reply of it running. */
export type DeleteAgentRefusal = 'not_found' | 'last_agent' | 'reply_running';
export type DeleteAgentOutcome = Outcome<null, DeleteAgentRefusal>;

/** Why the agent may not be deleted now, or null: not the person's, their only one, or a reply running. */
async function deleteRefusal(
  ctx: AgentLifecycleDeps,
  personId: string,
  agentId: string,
): Promise<{ ok: false; refusal: Refusal<DeleteAgentRefusal> } | null> {
  // One read answers both: with two reads, a delete of this agent landing between them made it look like
  // the account's last agent (409 instead of 404; PostgreSQL, agent-management-races).
  const agents = await ctx.identity.agents.list(personId);
  if (!agents.some((agent) => agent.id === agentId)) return refuse('not_found', 'No such agent.');
  if (agents.length <= 1) return refuse('last_agent', LAST_AGENT);
  // A reply still running would write into rows about to go: the person stops it first.
  const running = (await ctx.conversations.store.list(agentId)).some(
    (conversation) => ctx.conversations.manager.currentTurnId(conversation.id) !== null,
  );
  if (running)
    return refuse('reply_running', 'A reply of this agent is still running; stop it, then delete the agent.');
  return null;
}

/**
 * Deletes an agent (our extension): stops its machine, removes its row (conversations, schedules, settings and
 * tokens cascade) and then its folder (workspace, skills, bundle, machine config). An account keeps one agent.
 */
export async function deleteAgent(
  ctx: AgentLifecycleDeps,
  personId: string,
  agentId: string,
): Promise<DeleteAgentOutcome> {
  const refused = await deleteRefusal(ctx, personId, agentId);
  if (refused) return refused;
  await ctx.engines.stop(agentId);
  // Asked again after the wait: a delete of the account's other agent, of this one, or a new reply may have
  // come meanwhile.
  const refusedNow = await deleteRefusal(ctx, personId, agentId);
  if (refusedNow) return refusedNow;
  const removed = await ctx.identity.agents.remove(personId, agentId);
  // A delete that came at the same time may have won: the row is gone, or this is now the only agent.
  if (removed === 'gone') return refuse('not_found', 'No such agent.');
  if (removed === 'last') return refuse('last_agent', LAST_AGENT);
  await rm(ctx.agentConfig.service.layoutOf(agentId).root, { recursive: true, force: true });
  return success(null);
}
