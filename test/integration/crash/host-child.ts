/**
 * The app's host as browser mode runs it (createHost, its memory store and its streams), in a process of its
 * own so host-kill.test.ts can kill it with SIGKILL in the middle of a turn. It signs in to SERVICE_URL as
 * the default person, starts a conversation and sends turns one after another (a `write` the agent asks
 * permission for, answered yes, then a `wait`), printing a line as each is sent and as each ends. The OS
 * keychain cannot run here: secrets live in memory, so the process after the kill signs in again.
 */
import { hasTurnEnded } from '../../support/conversation-updates';
import type { ConversationUpdate } from '../../../src/shared/bridge';
import { signedInChildHost } from '../../support/another-server-host';

const dataDir = process.env['HOST_DATA'] ?? '';
const serviceUrl = process.env['SERVICE_URL'] ?? '';
const say = (line: object) => console.log(JSON.stringify(line));

const host = await signedInChildHost(dataDir, serviceUrl);
const agents = await host.listAgents();
const agentId = agents.ok ? agents.value.agents.find((a) => a.protocol === 'acp')!.id : '';
const created = await host.createConversation(agentId);
if (!created.ok) throw new Error(created.error.message);
const sessionId = created.value.id;
say({ agentId, sessionId });

const updates: ConversationUpdate[] = [];
host.onConversationEvent(agentId, sessionId, (u) => {
  updates.push(u);
  if (u.kind === 'event' && u.event.event === 'permission') {
    const { id, options } = u.event.data;
    void host.answerPermission(agentId, sessionId, { id, optionId: options[0]!.optionId });
  }
});
while (!updates.some((u) => u.kind === 'connection' && u.connection.state === 'open'))
  await new Promise((resolve) => setTimeout(resolve, 20));
for (let n = 1; ; n += 1) {
  const content = n % 2 ? `write notes/${n}.md\n\`\`\`\n${`line ${n}\n`.repeat(2000)}\`\`\`` : 'wait 1';
  const sent = await host.sendMessage(agentId, sessionId, {
    content,
    permissionMode: 'preguntar',
    firstTurn: n === 1,
  });
  if (!sent.ok) throw new Error(sent.error.message);
  const { turnId } = sent.value;
  say({ sent: n, turnId });
  while (!hasTurnEnded(updates, turnId)) await new Promise((resolve) => setTimeout(resolve, 20));
  say({ ended: n, turnId });
}
