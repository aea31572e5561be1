import {
  ENGINES_WITHOUT_MACHINE,
  type EngineHost,
  type EngineMcpServer,
  type PermissionRequest,
} from '../engine/types';
import { refuse, success, type Outcome } from '../outcome';
import type { BundleEntry } from './bundle';
import { runHouseLiteTurn } from './house-lite';

export interface TryRequest {
  agentId: string;
  engine: string;
  text: string;
  session: string;
  reset: boolean;
  as?: 'msgapp1';
  model?: string;
  mcpServers: EngineMcpServer[];
}

/** What a try turn answered: its text, the error that ended it (or null), and its session. */
export interface TryReply {
  text: string;
  error: string | null;
  session: string;
}

/** Why a try turn did not run: the owner's allowance is spent, or a try of that session is running. */
export type TryRefusal = 'quota_exhausted' | 'session_busy';

export type TryOutcome = Outcome<TryReply, TryRefusal>;

/**
 * `POST try`: one test turn, answered when it ends (up to 180 s). A try session is its own conversation
 * (`try:<channel>:<session>`), separate from the person's conversations; one turn at a time per session.
 * Permissions asked during a try are allowed once: nobody is there to answer them.
 */
export function createTryRunner(deps: {
  engine: () => EngineHost;
  /** The agent's bundle, for house-lite turns (seeded into a fresh folder each turn). */
  bundleOf: (agentId: string) => Promise<BundleEntry[]>;
  timeoutMs: number;
  /** Why the agent owner's allowance refuses a turn, or null: a try turn is paid like any turn (402). */
  quotaLeft?: (agentId: string) => Promise<string | null>;
  /** Records a try turn that ran, with its tokens: it consumes the allowance like any turn. */
  charge?: (agentId: string, tokens: number) => Promise<void>;
}) {
  const running = new Set<string>();
  /** house-lite memory per try session (process lifetime). */
  const houseLiteHistory = new Map<string, string[]>();

  async function run(req: TryRequest): Promise<TryOutcome> {
    const channel = req.as ?? 'prueba';
    const exhausted = await deps.quotaLeft?.(req.agentId);
    if (exhausted) return refuse('quota_exhausted', exhausted);
    const key = `${req.agentId}|${channel}|${req.session}`;
    if (running.has(key))
      return refuse('session_busy', `A try turn is already running in session "${req.session}".`);
    running.add(key);
    const spent = { tokens: 0 };
    try {
      const result = ENGINES_WITHOUT_MACHINE.includes(req.engine)
        ? await runBundleTurn(req, key, channel)
        : await runMachineTurn(req, channel, spent);
      return success({ text: result.text, error: result.error, session: req.session });
    } finally {
      running.delete(key);
      await deps.charge?.(req.agentId, spent.tokens);
    }
  }

  async function runBundleTurn(req: TryRequest, key: string, channel: string) {
    if (req.reset) houseLiteHistory.delete(key);
    const history = houseLiteHistory.get(key) ?? [];
    const result = await runHouseLiteTurn(await deps.bundleOf(req.agentId), req.text, history, channel);
    houseLiteHistory.set(key, [...history, req.text]);
    return result;
  }

  async function runMachineTurn(req: TryRequest, channel: string, spent: { tokens: number }) {
    const engine = deps.engine();
    const conversationId = `try:${channel}:${req.session}`;
    if (req.reset) await engine.forgetConversation(req.agentId, conversationId);
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), deps.timeoutMs);
    let text = '';
    try {
      const result = await engine.runTurn({
        agentId: req.agentId,
        engine: req.engine,
        conversationId,
        content: req.text,
        ...(req.model ? { model: req.model } : {}),
        mcpServers: req.mcpServers,
        onEvent: (event) => {
          if (event.type === 'chunk') text += event.text;
          else if (event.type === 'usage') spent.tokens = event.input + event.output;
        },
        requestPermission: async (permission: PermissionRequest) => {
          const once =
            permission.options.find((o) => o.kind === 'allow_once') ??
            permission.options.find((o) => o.kind === 'allow_always');
          return once ? { optionId: once.optionId } : { denied: true };
        },
        signal: timeout.signal,
      });
      if (timeout.signal.aborted) {
        return { text, error: `The try turn did not finish within ${Math.round(deps.timeoutMs / 1000)} s.` };
      }
      if (result.stopReason === 'error') return { text, error: result.error ?? 'The turn failed.' };
      if (result.stopReason === 'cancelled') {
        return {
          text,
          error: result.interruptedBy
            ? `The turn was interrupted (${result.interruptedBy}).`
            : 'The turn was cancelled.',
        };
      }
      return { text, error: null };
    } finally {
      clearTimeout(timer);
    }
  }

  return { run };
}

export type TryRunner = ReturnType<typeof createTryRunner>;
