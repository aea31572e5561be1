/**
 * Helpers for engine tests: a host over a temp data folder, and a recorder of
 * what one turn emits. Every test talks to real agent processes over stdio.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngineHost } from '../../../../src/service/engine';
import type {
  EngineEvent,
  EngineHost,
  EngineHostOptions,
  EngineTool,
  PermissionAnswer,
  PermissionRequest,
  RunTurnOptions,
  TurnHandle,
} from '../../../../src/service/engine';

export interface Harness {
  host: EngineHost;
  dataDir: string;
  logs: string[];
  close(): Promise<void>;
}

export async function makeHost(options: Partial<EngineHostOptions> = {}, dataDir?: string): Promise<Harness> {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'agentdesk-engine-')));
  const logs: string[] = [];
  const host = createEngineHost({ dataDir: dir, log: (line) => logs.push(line), ...options });
  return {
    host,
    dataDir: dir,
    logs,
    close: async () => {
      await host.close();
      if (!dataDir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Collects one turn's events and permission requests. */
export class Recorder {
  readonly events: EngineEvent[] = [];
  readonly permissions: { request: PermissionRequest; signal: AbortSignal }[] = [];
  private waiters: { test: () => boolean; resolve: () => void }[] = [];

  constructor(
    private readonly answer: (req: PermissionRequest) => Promise<PermissionAnswer> | PermissionAnswer,
  ) {}

  onEvent = (event: EngineEvent): void => {
    this.events.push(event);
    this.check();
  };

  requestPermission = async (request: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer> => {
    this.permissions.push({ request, signal });
    this.check();
    return this.answer(request);
  };

  private check(): void {
    this.waiters = this.waiters.filter((w) => {
      if (!w.test()) return true;
      w.resolve();
      return false;
    });
  }

  /** Resolves once `test` holds (checked on every event and permission request). */
  until(test: () => boolean): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  of<T extends EngineEvent['type']>(type: T): Extract<EngineEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<EngineEvent, { type: T }> => e.type === type);
  }

  get text(): string {
    return this.of('chunk')
      .map((e) => e.text)
      .join('');
  }

  get thoughts(): string {
    return this.of('thought')
      .map((e) => e.text)
      .join('');
  }

  /** Tool events of one call, in order. */
  tool(id: string): EngineTool[] {
    return this.of('tool').filter((t) => t.id === id);
  }
}

export type TurnInput = Omit<RunTurnOptions, 'onEvent' | 'requestPermission'>;

/** Starts a turn with a fresh recorder. `answer` decides permission requests (default: deny). */
export function startTurn(
  host: EngineHost,
  input: TurnInput,
  answer: (req: PermissionRequest) => Promise<PermissionAnswer> | PermissionAnswer = () => ({ denied: true }),
): { handle: TurnHandle; rec: Recorder } {
  const rec = new Recorder(answer);
  const handle = host.startTurn({ ...input, onEvent: rec.onEvent, requestPermission: rec.requestPermission });
  return { handle, rec };
}

/** Polls `test` until it holds (for state without events, such as a machine going idle). */
export async function eventually(test: () => boolean | Promise<boolean>, what: string, limitMs = 15_000) {
  const start = Date.now();
  while (!(await test())) {
    if (Date.now() - start > limitMs) throw new Error(`Timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export const base64 = (text: string | Uint8Array) => Buffer.from(text).toString('base64');
