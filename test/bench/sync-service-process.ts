/**
 * The local service alone in its own process, for the initial-sync figures of `npm run bench:sync`
 * measured as against a server elsewhere: the service's work then runs beside the client's,
 * not on the same event loop. Started with an IPC channel; sends `{ url, token, agentId }` once
 * signed in, and stops on `{ type: 'stop' }`.
 */
import { firstAgentId, signIn, startTestService } from '../support/local-service';

const service = await startTestService();
const tokens = await signIn(service, { scopes: ['agents:read', 'agents:write'] });
const agentId = await firstAgentId(service, tokens.access_token);
process.on('message', (message: { type?: string }) => {
  if (message.type !== 'stop') return;
  void service.cleanup().then(() => process.exit(0));
});
process.send!({ url: service.url, token: tokens.access_token, agentId });
