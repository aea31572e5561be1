import { rm } from 'node:fs/promises';
import { LIMITS } from '../../shared/api';
import type { CoreContext } from '../core-context';
import type { EngineHost, EngineMcpServer, EnginesConfig } from '../engine/types';
import { createConnectors, type ConnectorProviderConfig, type Connectors } from '../connectors/connectors';
import { startDemoProvider, type DemoProvider } from '../connectors/demo-provider';
import { createDeviceStore, type DeviceStore } from '../connectors/devices';
import { createApprovalRules, type ApprovalRuleStore } from './approval-rules';
import { createTokenSealer } from '../connectors/token-sealer';
import { createLibraryStore, type LibraryStore } from '../library/library-store';
import { loadOrCreateKey } from '../library/secret-key-file';
import { createTranscriber, type SttConfig, type Transcriber } from '../transcription/transcriber';
import type { Allowance } from '../turns/allowance';
import { createAgentConfigService, type AgentConfigService } from './agent-config-service';
import { assembleBundle } from './bundle';
import { createAgentConfigStore, type AgentConfigStore } from './config-store';
import { createMsgappNumbers, type MsgappNumbers, type WorkspaceConfig } from './msgapp1-numbers';
import { lentToolsServer } from './lent-tools';
import type { ToolChannelName } from './service-tools';
import { createTryRunner, type TryRunner } from './try-runner';

/**
 * Settings of this area (config file or `startService({config})`):
 * - `agentConfig.tryTimeoutMs`: how long `try` waits (default 180 s);
 * - `library.maxBytes`: cap of one account file (default 10 MiB);
 * - `stt`: transcription engines and the audio cap (see SttConfig);
 * - `connectors`: OAuth providers with client credentials (see ConnectorProviderConfig);
 * - `workspace`: the msgapp1 numbers of the service's workspace (see WorkspaceConfig).
 */
export interface AgentConfigAreaConfig {
  tryTimeoutMs?: number;
}

/** Same cap as a workspace file (10 MB), as the contract describes it. */
export const DEFAULT_LIBRARY_MAX_BYTES = LIMITS.workspaceFileBytesMax;

export interface AgentConfigArea {
  store: AgentConfigStore;
  service: AgentConfigService;
  tryRunner: TryRunner;
  msgapp1: MsgappNumbers;
  library: LibraryStore;
  libraryMaxBytes: number;
  /** HMAC key of signed account-file URLs. */
  signingKey: Buffer;
  transcriber: Transcriber;
  connectors: Connectors;
  demoProvider: DemoProvider;
  devices: DeviceStore;
  /** The agents' approval rules (our extension). */
  approvalRules: ApprovalRuleStore;
  /**
   * What a turn of this agent on `channel` must give the engine: the agent's model (when one is chosen)
   * and its MCP servers plus the service's lent tools for that channel. The turns layer should spread
   * this into `startTurn` so conversations get them too, as `try` does.
   */
  turnOptions(
    agentId: string,
    channel: ToolChannelName,
  ): Promise<{ model?: string; mcpServers: EngineMcpServer[] }>;
}

/** What the agent configuration stands on besides the core: the engine host, and the allowance `try` spends. */
export interface AgentConfigDeps {
  engines: EngineHost;
  /** The engines' commands as they are now (engine/engine-places.ts), for the person's words about each. */
  engineCommands: EnginesConfig;
  allowance: Allowance;
}

/** Builds the agent-configuration area, last of the areas (../context.ts). */
export async function startAgentConfig(
  ctx: CoreContext,
  { engines, engineCommands, allowance }: AgentConfigDeps,
): Promise<AgentConfigArea> {
  const settings = (ctx.config['agentConfig'] ?? {}) as AgentConfigAreaConfig;
  const store = createAgentConfigStore(ctx.db, ctx.clock);
  const service = createAgentConfigService({
    dataDir: ctx.dataDir,
    store,
    engine: () => engines,
    engines: engineCommands,
    log: ctx.log,
  });
  const tryRunner = createTryRunner({
    engine: () => engines,
    timeoutMs: settings.tryTimeoutMs ?? LIMITS.tryTurnTimeoutMs,
    quotaLeft: async (agentId) => {
      const owner = (await ctx.identity.agents.find(agentId))?.personId;
      return owner ? allowance.refusal(owner) : null;
    },
    charge: async (agentId, tokens) => {
      const personId = (await ctx.identity.agents.find(agentId))?.personId;
      if (personId) await allowance.chargeTryTurn({ personId, agentId, tokens, at: ctx.clock.now() });
    },
    bundleOf: async (agentId) => {
      const agent = await ctx.identity.agents.find(agentId);
      const s = await store.read(agentId);
      const engine = agent?.engine ?? 'house-lite';
      return assembleBundle({
        prompt: s.prompt,
        mcp: s.mcp,
        skills: service.skillsOf(agentId, engine),
        knowledgeBase: service.knowledgeBaseOf(agentId, engine),
      });
    },
  });
  const msgapp1 = createMsgappNumbers(
    ctx.db,
    ctx.clock,
    () => ctx.config['workspace'] as WorkspaceConfig | undefined,
  );
  const library = createLibraryStore(ctx.db, ctx.clock, ctx.dataDir);
  const libraryConfig = (ctx.config['library'] ?? {}) as { maxBytes?: number };
  const signingKey = await loadOrCreateKey(ctx.dataDir, 'signed-urls');
  const sealer = createTokenSealer(await loadOrCreateKey(ctx.dataDir, 'connector-tokens'));
  const demoProvider = await startDemoProvider(ctx.clock);
  ctx.onClose(() => demoProvider.close());
  const demo: ConnectorProviderConfig = {
    id: 'demo',
    nombre: 'Demo provider (local)',
    issuer: demoProvider.issuer,
    authorizationEndpoint: demoProvider.authorizationEndpoint,
    tokenEndpoint: demoProvider.tokenEndpoint,
    revocationEndpoint: demoProvider.revocationEndpoint,
    clientId: demoProvider.clientId,
    clientSecret: demoProvider.clientSecret,
    scope: 'demo.read',
  };
  const configured = (ctx.config['connectors'] ?? []) as ConnectorProviderConfig[];
  const connectors = createConnectors({
    db: ctx.db,
    clock: ctx.clock,
    sealer,
    providers: [demo, ...configured.filter((p) => p.id !== 'demo')],
    baseUrl: () => ctx.baseUrl,
    log: ctx.log,
  });
  const devices = createDeviceStore(ctx.db, ctx.clock);

  const area: AgentConfigArea = {
    store,
    service,
    tryRunner,
    msgapp1,
    library,
    libraryMaxBytes: libraryConfig.maxBytes ?? DEFAULT_LIBRARY_MAX_BYTES,
    signingKey,
    transcriber: createTranscriber(ctx.config['stt'] as SttConfig | undefined),
    connectors,
    demoProvider,
    devices,
    approvalRules: createApprovalRules(ctx.db),
    async turnOptions(agentId, channel) {
      const saved = await store.read(agentId);
      return {
        ...(saved.model ? { model: saved.model } : {}),
        mcpServers: [...saved.mcp, lentToolsServer(ctx.localUrl, signingKey, agentId, channel)],
      };
    },
  };

  ctx.account.register({
    name: 'agent-config',
    async remove(personId, agentIds) {
      await connectors.disconnectAll(personId);
      await library.deleteAll(personId);
      for (const agentId of agentIds) {
        const layout = service.layoutOf(agentId);
        await rm(layout.bundle, { recursive: true, force: true });
        await rm(layout.machineConfig, { force: true });
      }
    },
  });
  return area;
}
