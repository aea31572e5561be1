import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Logger } from '../core/log/logger';
import type { SecretStore } from '../core/auth/secret-store';
import type { DeskHost } from '../core/host';
import { defaultDataDir } from '../core/profiles/data-dir';
import type { Agent } from '../shared/api';
import type { CliIo } from './terminal';
import { terminalLine } from './terminal-text';
import { ensureSignedIn, login, whoami } from './cli-session';

export const USAGE = `Usage: agentdesk <command> [options]

Commands:
  login                 sign in: on this computer at once, with --server through your browser
  logout                sign out (and revoke the sign-in)
  whoami                who is signed in, and where
  agents                list your agents
  models                your model providers (keys masked) and the models each lists
  chat <agent> [text]   talk to an agent (by id or name); without text, read lines until end of input
  sync <folder> --agent <id> [--once]   keep a folder and an agent's files in step (sync --help)

Options:
  --server <url>        a custom server instead of the local service on this computer
  --client-id <id>      the client id for --server (default agentdesk-desktop)
  --port <n>            a loopback port registered for --server's client (repeatable)
  --data <dir>          where profiles and the local service's data live
  --conversation <id>   chat: continue this conversation
  --model <id>          chat: the model for this conversation (an id from agentdesk models,
                        on an agent whose engine is the AgentDesk agent on your models)
  --yes                 chat: let the service decide tool permissions instead of asking
  --no-open             print the sign-in address without opening a browser
`;

export interface CliDeps {
  io: CliIo;
  /** Tests share one store across runs (the OS keychain plays that part for people). */
  secrets?: SecretStore;
  logger?: Logger;
  signInTimeoutMs?: number;
  /** Tests only: false makes "This computer"'s service ask for a password, as `npm run service` does. */
  trustedLaunch?: boolean;
}

/** Runs one `agentdesk` command and resolves with its exit code. */
export async function runCli(argv: string[], deps: CliDeps): Promise<number> {
  const { io } = deps;
  // Each command loads what it needs when it runs (the service, the host, the sync engine), so
  // `agentdesk --help` or a typo answers at once.
  if (argv[0] === 'sync') {
    const { runSyncCommand } = await import('./sync-command');
    return runSyncCommand(argv.slice(1), { io, ...(deps.secrets ? { secrets: deps.secrets } : {}) });
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        server: { type: 'string' },
        'client-id': { type: 'string' },
        port: { type: 'string', multiple: true },
        data: { type: 'string' },
        conversation: { type: 'string' },
        model: { type: 'string' },
        yes: { type: 'boolean', default: false },
        'no-open': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    io.out(USAGE);
    return command || values.help ? 0 : 2;
  }
  if (!['login', 'logout', 'whoami', 'agents', 'models', 'chat'].includes(command)) {
    io.err(`Unknown command "${command}".\n\n${USAGE}`);
    return 2;
  }

  const { openCliHost } = await import('./open-host');
  const host = await openCliHost({
    dataDir: resolve(values.data ?? defaultDataDir()),
    io,
    openBrowser: !values['no-open'],
    ...(deps.secrets ? { secrets: deps.secrets } : {}),
    ...(deps.logger ? { logger: deps.logger } : {}),
    ...(deps.signInTimeoutMs ? { signInTimeoutMs: deps.signInTimeoutMs } : {}),
    ...(deps.trustedLaunch === false ? { trustedLaunch: false } : {}),
  });
  const cli = { host, io, trusted: deps.trustedLaunch !== false };
  try {
    if (values.server) {
      const ports = (values.port ?? []).map(Number);
      const added = await host.addCustomProfile({
        baseUrl: values.server,
        clientId: values['client-id'] ?? 'agentdesk-desktop',
        ...(ports.length ? { loopbackPorts: ports } : {}),
      });
      if (!added.ok) {
        io.err(`${added.error.message}\n`);
        return 2;
      }
    }
    switch (command) {
      case 'login':
        return await login(cli);
      case 'logout': {
        const out = await host.signOut();
        io.out(out.ok ? 'Signed out.\n' : `${out.error.message}\n`);
        return out.ok ? 0 : 1;
      }
      case 'whoami':
        return await whoami(cli);
      case 'agents':
        return (await ensureSignedIn(cli)) ? await listAgents(host, io) : 1;
      case 'models': {
        if (!(await ensureSignedIn(cli))) return 1;
        const { listModels } = await import('./models-command');
        return await listModels(host, io);
      }
      case 'chat': {
        const [agent, ...words] = rest;
        if (!agent) {
          io.err(`chat needs an agent id or name.\n\n${USAGE}`);
          return 2;
        }
        if (!(await ensureSignedIn(cli))) return 1;
        const found = await findAgent(host, agent);
        if (!found.ok) {
          io.err(`${found.message}\n`);
          return 1;
        }
        const { runChat } = await import('./chat');
        return await runChat(host, io, {
          agentId: found.agent.id,
          ...(values.conversation ? { conversationId: values.conversation } : {}),
          ...(values.model ? { model: values.model } : {}),
          ...(words.length ? { message: words.join(' ') } : {}),
          autoPermissions: values.yes,
        });
      }
    }
    return 2;
  } finally {
    await host.close();
  }
}

async function listAgents(host: DeskHost, io: CliIo): Promise<number> {
  const result = await host.listAgents();
  if (!result.ok) {
    io.err(`${result.error.message}\n`);
    return 1;
  }
  for (const agent of result.value.agents) {
    // The id to type and the name: the protocol and the access key are wire matters (`sync --server` says
    // itself when it needs a key). The server's words may carry a terminal's escape (the spec bounds only length).
    io.out(`${terminalLine(agent.id)}\t${terminalLine(agent.name)}\n`);
  }
  if (result.value.agents.length === 0) io.out('No agents yet.\n');
  return 0;
}

async function findAgent(
  host: DeskHost,
  wanted: string,
): Promise<{ ok: true; agent: Agent } | { ok: false; message: string }> {
  const result = await host.listAgents();
  if (!result.ok) return { ok: false, message: result.error.message };
  const lower = wanted.toLowerCase();
  const agent =
    result.value.agents.find((a) => a.id === wanted) ??
    result.value.agents.find((a) => a.name.toLowerCase() === lower);
  if (agent) return { ok: true, agent };
  const names = result.value.agents.map((a) => terminalLine(a.name)).join(', ') || 'none';
  return { ok: false, message: `No agent called "${terminalLine(wanted)}". Your agents: ${names}.` };
}
