import { Hono } from 'hono';
import { API_BASE, lookupRoute } from '../shared/api';
import { apiGuard, methodNotAllowed, notFound } from './auth/bearer';
import type { Cluster } from './cluster/cluster';
import type { ServiceContext } from './context';
import type { AppEnv } from './http/app-env';
import { dotSegmentGuard } from './http/dot-segment-guard';
import { errorJson, handleError } from './http/errors';
import { clientInfo } from './http/forwarded';
import { hostGuard } from './http/host-guard';
import { originGuard } from './http/origin-guard';
import { settleRefusedBodies } from './http/read-body';
import { requestLog } from './http/request-log';
import { accountRoutes } from './routes/account';
import { libraryRoutes } from './routes/library';
import { inviteRoutes } from './routes/invite';
import { agentConfigRoutes } from './routes/agent-config';
import { agentManagementRoutes } from './routes/agent-management';
import { agentTryRoutes } from './routes/agent-try';
import { connectorRoutes } from './routes/connectors';
import { conversationRoutes } from './routes/conversations';
import { archivedConversationRoutes } from './routes/archived-conversations';
import { conversationVersionRoutes } from './routes/conversation-versions';
import { approvalRuleRoutes } from './routes/approval-rules';
import { deviceRoutes } from './routes/devices';
import { modelProviderRoutes } from './routes/model-providers';
import { lentToolsMcpRoutes } from './routes/lent-tools-mcp';
import { meRoutes } from './routes/me';
import { oauthRoutes } from './routes/oauth';
import { openApiRoutes } from './routes/openapi';
import { signInRoutes } from './routes/sign-in';
import { transcriptionRoutes } from './routes/transcription';

/** The whole HTTP surface of the local service. */
export function buildApp(ctx: ServiceContext, cluster?: Pick<Cluster, 'forward'>): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requestLog(ctx.log));
  app.use('*', clientInfo(ctx.serving));
  app.use(
    '*',
    hostGuard(ctx.serving, () => ctx.listenPort),
  );
  app.use('*', originGuard(ctx.serving));
  app.use('*', dotSegmentGuard());
  app.use('*', settleRefusedBodies());
  // Every /api/v2 path: bearer, route table, scope and agent ownership are checked before any handler.
  app.use(`${API_BASE}/*`, apiGuard(ctx));
  // Several processes: a request that needs an agent's machine runs in the process that holds it.
  if (cluster) app.use(`${API_BASE}/*`, cluster.forward);

  // Route modules, one per area: `src/service/routes/<area>.ts` exporting `xxxRoutes(ctx): Hono<AppEnv>`,
  // whose handlers meet their route table entries through `registerRoute`. Each area adds ONE line below.
  app.route('/', oauthRoutes(ctx));
  app.route('/', inviteRoutes(ctx)); // before sign-in: closes first-run on a public server
  app.route('/', signInRoutes(ctx));
  app.route('/', accountRoutes(ctx));
  app.route('/', openApiRoutes(ctx));
  app.route('/', meRoutes(ctx));
  app.route('/', agentManagementRoutes(ctx)); // our extension: make and delete agents
  app.route('/', conversationRoutes(ctx)); // conversations/turns
  app.route('/', archivedConversationRoutes(ctx)); // our extension: archived conversations
  app.route('/', conversationVersionRoutes(ctx)); // our extension: rewind and earlier versions
  app.route('/', approvalRuleRoutes(ctx)); // our extension: approval rules
  app.route('/', agentConfigRoutes(ctx)); // agent-config
  app.route('/', agentTryRoutes(ctx)); // agent-config: try a turn
  app.route('/', libraryRoutes(ctx)); // agent-config: the account's file library
  app.route('/', transcriptionRoutes(ctx)); // agent-config: audio
  app.route('/', connectorRoutes(ctx)); // agent-config: connectors
  app.route('/', deviceRoutes(ctx)); // agent-config: devices
  app.route('/', lentToolsMcpRoutes(ctx)); // agent-config: tools lent to agents over MCP
  app.route('/', modelProviderRoutes(ctx)); // our extension: model providers and agent programs

  app.notFound((c) => {
    // Public paths of the contract (/oauth2/token, /openapi.yaml...) called with another method.
    const known = lookupRoute(c.req.method, c.req.path);
    if (known.kind === 'wrong_method') return methodNotAllowed(c, known.allow);
    if (c.req.path.startsWith(`${API_BASE}/`)) {
      // In the route table and past the guard, but no module answers it yet.
      return errorJson(c, 501, 'no_implementado', 'This route is not implemented by the local service yet.');
    }
    return notFound(c);
  });
  app.onError(handleError(ctx.log, { dataDir: ctx.dataDir, isPublic: ctx.serving.isPublic }));
  return app;
}
