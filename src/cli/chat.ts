import type { PermissionEvent, ToolUpdate } from '../shared/api';
import type { ConversationUpdate, DeskBridge, DeskError } from '../shared/bridge';
import { LOST_TURN_MESSAGE } from '../core/events/sse-client';
import { permissionChoice } from './permission-choice';
import { dim, type CliIo } from './terminal';
import { terminalLine, terminalText } from './terminal-text';
import { toolKindWord, toolStatusWord } from '../shared/words/tool-words';

export interface ChatOptions {
  agentId: string;
  /** Continue this conversation instead of starting a new one. */
  conversationId?: string;
  /** One message, then exit; without it the chat reads lines until end of input. */
  message?: string;
  /** Let the service decide tool permissions instead of asking here. */
  autoPermissions?: boolean;
  /** The model for this conversation (the spec's POST …/model), from the next reply on. */
  model?: string;
}

/** A server's words, as the terminal shows them (no escape sequence of its reaches the terminal). */
const words = (error: DeskError): string => terminalText(error.message);

/**
 * `agentdesk chat`: streams each reply as it arrives, shows thoughts and tool
 * calls, asks permission questions, and turns Ctrl-C into a cancel of the
 * running turn (a second Ctrl-C leaves).
 */
export async function runChat(desk: DeskBridge, io: CliIo, options: ChatOptions): Promise<number> {
  const { agentId } = options;
  let sessionId = options.conversationId;
  const fresh = !sessionId;
  if (!sessionId) {
    const created = await desk.createConversation(agentId);
    if (!created.ok) {
      io.err(`${words(created.error)}\n`);
      return 1;
    }
    sessionId = created.value.id;
  }
  io.err(dim(io, `Conversation ${sessionId}\n`));
  if (options.model !== undefined) {
    const chosen = await desk.setModel(agentId, sessionId, options.model);
    if (!chosen.ok) {
      io.err(`${words(chosen.error)}\n`);
      return 1;
    }
    io.err(dim(io, `Model ${terminalLine(options.model)}\n`));
  }

  let mode: 'text' | 'thought' | 'other' = 'other';
  let lineOpen = false;
  let turn:
    | {
        id: string;
        finish: (code: number) => void;
        /** Finished: later news of it (a stream reopened idle) changes nothing. */
        ended: boolean;
        failed: boolean;
        cancelled: boolean;
        /** Connections opened before the service accepted the turn. */
        sentOnConnection: number;
      }
    | undefined;
  let connectionsOpened = 0;
  const toolStates = new Map<string, string>();
  const answered = new Set<string>();
  let permissionQueue = Promise.resolve();

  const write = (text: string): void => {
    if (!text) return;
    io.out(text);
    lineOpen = !text.endsWith('\n');
  };
  const newLine = (): void => {
    if (lineOpen) write('\n');
  };

  const showTool = (tool: ToolUpdate): void => {
    const key = `${tool.status ?? ''}|${tool.title ?? ''}`;
    if (toolStates.get(tool.id) === key) return;
    toolStates.set(tool.id, key);
    newLine();
    // Plain words, as the app shows them: "Running", not the wire's in_progress; "." is the workspace itself.
    const kind = toolKindWord(tool.kind);
    const parts = [
      tool.title ?? 'tool',
      kind ? `(${kind})` : '',
      tool.status ? toolStatusWord(tool.status) : '',
      tool.path === '.' ? 'the workspace' : (tool.path ?? ''),
    ].map(terminalLine);
    write(`${dim(io, `⚙ ${parts.filter(Boolean).join(' ')}`)}\n`);
    mode = 'other';
  };

  const askPermission = async (request: PermissionEvent): Promise<void> => {
    if (answered.has(request.id)) return;
    newLine();
    const tool = request.tool as { title?: string; kind?: string; path?: string } | undefined;
    write(`The agent asks: ${terminalLine(request.title ?? tool?.title ?? 'use a tool')}\n`);
    if (tool && typeof tool === 'object') {
      const detail = [tool.kind, tool.path].filter(Boolean).join(' ');
      if (detail) write(`  ${terminalLine(detail)}\n`);
    }
    request.options.forEach((option, index) => {
      const label = (option as { name?: string }).name ?? option.optionId;
      write(`  ${index + 1}) ${terminalLine(label)}\n`);
    });
    const count = request.options.length;
    for (let asked = 0; ; asked += 1) {
      const answer = await io.ask(
        asked === 0 ? `Choose 1-${count} (y allows once, n denies): ` : `Type 1-${count}, y or n: `,
      );
      if (answered.has(request.id)) return;
      if (answer === undefined) return; // no more input: the request expires on the service
      const choice = permissionChoice(request.options, answer);
      if (!choice) continue;
      answered.add(request.id);
      const sent = await desk.answerPermission(agentId, sessionId!, {
        id: request.id,
        optionId: choice.optionId,
      });
      if (!sent.ok) write(`${words(sent.error)}\n`);
      return;
    }
  };

  const onUpdate = (update: ConversationUpdate): void => {
    if (update.kind === 'connection') {
      const c = update.connection;
      if (c.state === 'reconnecting') {
        newLine();
        io.err(dim(io, `(connection lost, reconnecting${c.reason ? `: ${terminalLine(c.reason)}` : ''})\n`));
      } else if (c.state === 'closed' && c.error) {
        newLine();
        io.err(`${words(c.error)}\n`);
        turn?.finish(1);
      }
      return;
    }
    const { event } = update;
    switch (event.event) {
      case 'chunk':
        if (turn && event.data.turnId !== turn.id) return;
        if (mode !== 'text') newLine();
        mode = 'text';
        write(terminalText(event.data.text));
        return;
      case 'thought':
        if (!turn) return;
        if (mode !== 'thought') {
          newLine();
          write(dim(io, '… '));
        }
        mode = 'thought';
        write(dim(io, terminalText(event.data.text)));
        return;
      case 'tool':
        if (turn) showTool(event.data);
        return;
      case 'permission': {
        const request = event.data;
        permissionQueue = permissionQueue.then(() => askPermission(request));
        return;
      }
      case 'permission-resolved':
        answered.add(event.data.id);
        return;
      case 'error':
        if (!turn) return;
        newLine();
        io.err(`error: ${terminalText(event.data.message)}\n`);
        turn.failed = true;
        return;
      case 'done':
        if (turn && 'turnId' in event.data && event.data.turnId === turn.id) {
          newLine();
          turn.finish(turn.cancelled ? 130 : turn.failed ? 1 : 0);
        } else if (
          turn?.id &&
          !turn.ended &&
          'idle' in event.data &&
          connectionsOpened > turn.sentOnConnection
        ) {
          // A stream reopened after the turn was accepted says nothing runs: the turn was lost.
          newLine();
          io.err(`error: ${LOST_TURN_MESSAGE}\n`);
          turn.finish(1);
        }
        return;
      default:
        return;
    }
  };

  // Subscribe first, and wait until the stream is open, so no event of the turn is missed.
  let opened!: (ok: boolean) => void;
  const ready = new Promise<boolean>((resolve) => (opened = resolve));
  const stop = desk.onConversationEvent(agentId, sessionId, (update) => {
    if (update.kind === 'connection' && update.connection.state === 'open') {
      connectionsOpened += 1;
      opened(true);
    }
    if (update.kind === 'connection' && update.connection.state === 'closed') opened(false);
    onUpdate(update);
  });

  let interrupts = 0;
  const stopInterrupts = io.onInterrupt(() => {
    interrupts += 1;
    const running = turn;
    if (!running || interrupts > 1) {
      stop();
      io.close();
      process.exit(130);
    }
    running.cancelled = true;
    newLine();
    io.err(dim(io, '(cancelling — press Ctrl-C again to leave)\n'));
    void desk.cancelTurn(agentId, sessionId!);
  });

  const runTurn = async (content: string, first: boolean): Promise<number> => {
    interrupts = 0;
    mode = 'other';
    const current: NonNullable<typeof turn> = {
      id: '',
      finish: () => undefined,
      ended: false,
      failed: false,
      cancelled: false,
      sentOnConnection: 0,
    };
    const done = new Promise<number>((resolve) => {
      current.finish = (code) => {
        current.ended = true;
        resolve(code);
      };
    });
    turn = current;
    const sent = await desk.sendMessage(agentId, sessionId!, {
      content,
      firstTurn: first,
      permissionMode: options.autoPermissions ? 'auto' : 'preguntar',
    });
    if (!sent.ok) {
      turn = undefined;
      io.err(`${words(sent.error)}\n`);
      return 1;
    }
    current.id = sent.value.turnId;
    current.sentOnConnection = connectionsOpened;
    if (sent.value.state === 'queued')
      io.err(
        dim(
          io,
          `(waiting: the agent is busy with other conversations, ${sent.value.waitingTurns} in line)\n`,
        ),
      );
    const code = await done;
    turn = undefined;
    await permissionQueue;
    return code;
  };

  try {
    if (!(await ready)) return 1;
    if (options.message !== undefined) return await runTurn(options.message, fresh);
    let first = fresh;
    let last = 0;
    for (;;) {
      const line = await io.ask('you> ');
      if (line === undefined) return last;
      if (!line.trim()) continue;
      last = await runTurn(line, first);
      first = false;
    }
  } finally {
    stopInterrupts();
    stop();
  }
}
