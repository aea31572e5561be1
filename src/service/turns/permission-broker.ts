import type { TimerHandle, Timers } from '../timers';

/** How long an open permission request waits for an answer before it is denied (spec: 10 min). */
export const PERMISSION_TIMEOUT_MS = 10 * 60 * 1000;

export interface PermissionOptionLike {
  optionId: string;
  kind?: string;
}

/** How a request ended: an option chosen (by the person, `auto` or the expiry) or cancelled. */
export type PermissionOutcome =
  | { outcome: 'selected'; optionId: string; by: 'person' | 'auto' | 'expired' }
  | { outcome: 'cancelled'; by: 'expired' | 'turn-ended' };

interface OpenRequest {
  options: PermissionOptionLike[];
  timer: TimerHandle;
  settle(outcome: PermissionOutcome): void;
}

export type ResolveResult = 'resolved' | 'not-open' | 'bad-option';

/**
 * Open permission requests of one conversation, keyed by the `permission` event id.
 * Invariant: a request is settled exactly once; afterwards it is no longer open.
 */
export class PermissionBroker {
  private readonly open = new Map<string, OpenRequest>();

  constructor(
    private readonly timers: Timers,
    private readonly timeoutMs = PERMISSION_TIMEOUT_MS,
  ) {}

  /** Opens a request; the promise settles when it is answered, expires, or its turn ends. */
  request(id: string, options: PermissionOptionLike[]): Promise<PermissionOutcome> {
    return new Promise((resolve) => {
      const timer = this.timers.setTimeout(() => this.settle(id, denyOutcome(options)), this.timeoutMs);
      this.open.set(id, { options, timer, settle: resolve });
    });
  }

  /** Answers an open request with one of its options. */
  resolve(id: string, optionId: string): ResolveResult {
    const request = this.open.get(id);
    if (!request) return 'not-open';
    if (!request.options.some((o) => o.optionId === optionId)) return 'bad-option';
    this.settle(id, { outcome: 'selected', optionId, by: 'person' });
    return 'resolved';
  }

  isOpen(id: string): boolean {
    return this.open.has(id);
  }

  /** Cancels one open request (the engine no longer needs the answer). */
  cancel(id: string): void {
    this.settle(id, { outcome: 'cancelled', by: 'turn-ended' });
  }

  /** Cancels every open request (the turn was stopped, interrupted or crashed). */
  cancelAll(): void {
    for (const id of [...this.open.keys()]) this.settle(id, { outcome: 'cancelled', by: 'turn-ended' });
  }

  private settle(id: string, outcome: PermissionOutcome): void {
    const request = this.open.get(id);
    if (!request) return;
    this.open.delete(id);
    this.timers.clearTimeout(request.timer);
    request.settle(outcome);
  }
}

/** Expiry denies: the first reject option when the agent offered one, else a cancelled outcome. */
function denyOutcome(options: PermissionOptionLike[]): PermissionOutcome {
  const reject =
    options.find((o) => o.kind === 'reject_once') ?? options.find((o) => o.kind?.startsWith('reject'));
  return reject
    ? { outcome: 'selected', optionId: reject.optionId, by: 'expired' }
    : { outcome: 'cancelled', by: 'expired' };
}

/** Permission mode `auto` answers allow-once (or the first allow option) on the person's behalf. */
export function autoAllowOption(options: PermissionOptionLike[]): string | null {
  const allow =
    options.find((o) => o.kind === 'allow_once') ?? options.find((o) => o.kind?.startsWith('allow'));
  return allow?.optionId ?? null;
}
