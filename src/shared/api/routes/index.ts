import { MethodNotAllowed } from '../errors';
import type { ResponseSpec, RouteSpec } from '../route-types';
import { accountSection } from './account';
import { agentActionsSection } from './agent-actions';
import { agentConfigSection } from './agent-config';
import { agentManagementSection } from './agent-management';
import { modelProvidersSection } from './model-providers';
import { archivedConversationsSection } from './archived-conversations';
import { approvalRulesSection } from './approval-rules';
import { conversationVersionsSection } from './conversation-versions';
import { connectorsDevicesSection } from './connectors-devices';
import { conversationsSection } from './conversations';
import { extensionsSection } from './extensions';
import { filesAudioSection } from './files-audio';
import { oauthSection } from './oauth';
import { publicSection } from './public';
import { schedulesSection } from './schedules';
import { turnsSection } from './turns';

export {
  BUNDLE_BODY_MAX,
  DEVICE_BODY_MAX,
  FORM_BODY_MAX,
  JSON_BODY_MAX,
  MESSAGE_BODY_MAX,
} from './define-route';
export { API_BASE, routePath } from './paths';
export { ConversationForked, ForkConversationBody, McpServerState, McpStatusResponse } from './extensions';
export { AgentDeleted, CreateAgentBody, StartingPoint, StartingPoints } from './agent-management';
export {
  AddModelProviderBody,
  AgentProgram,
  AgentProgramParams,
  AgentPrograms,
  ModelProvider,
  ModelProviders,
  ProviderKind,
  ProviderModel,
  ProviderOrigin,
  ProviderParams,
  ProviderRemoved,
  SetAgentProgramBody,
} from './model-providers';
export { ArchivedConversation, ArchivedConversations, ConversationRestored } from './archived-conversations';
export {
  ConversationRewound,
  ConversationVersion,
  ConversationVersions,
  RewindConversationBody,
} from './conversation-versions';
export {
  AddApprovalRuleBody,
  ApprovalRule,
  ApprovalRuleParams,
  ApprovalRuleRemoved,
  ApprovalRules,
  RuleEffect,
} from './approval-rules';

/** The table as one tuple, in the spec's order, each entry with its literal type. */
const table = [
  ...agentConfigSection,
  ...agentActionsSection,
  ...accountSection,
  ...conversationsSection,
  ...turnsSection,
  ...schedulesSection,
  ...filesAudioSection,
  ...connectorsDevicesSection,
  ...oauthSection,
  ...publicSection,
  ...extensionsSection,
  ...agentManagementSection,
  ...modelProvidersSection,
  ...archivedConversationsSection,
  ...conversationVersionsSection,
  ...approvalRulesSection,
] as const;

/** Every route of the v2 spec, plus our marked extensions. The service and the client both read it. */
export const routes: readonly RouteSpec[] = table;

type TableEntry = (typeof table)[number];
/** The stable name of a route: its OpenAPI `operationId`. */
export type RouteId = TableEntry['operationId'];
/** The entry of `id`, with the literal types of its path and schemas. */
export type ApiRoute<Id extends RouteId> = Extract<TableEntry, { operationId: Id }>;

/** The table by operation id, typed: `apiRoutes.postMessage.path`, `.request.body.schema`... */
export const apiRoutes = Object.fromEntries(table.map((entry) => [entry.operationId, entry])) as {
  [Id in RouteId]: ApiRoute<Id>;
};

/** 405 body for a known path with another method. */
export const methodNotAllowedResponse: ResponseSpec = {
  description: 'Wrong method; `Allow` lists the right ones.',
  body: MethodNotAllowed,
  headers: { Allow: { description: 'Methods of this path.', type: 'string' } },
};

export function routeById(operationId: string): RouteSpec | undefined {
  return routes.find((r) => r.operationId === operationId);
}
