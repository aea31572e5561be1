import { describe, expect, it } from 'vitest';
import {
  PERMISSION_TIMEOUT_MS,
  PermissionBroker,
  autoAllowOption,
} from '../../../../src/service/turns/permission-broker';
import { ManualTimers } from '../../../../src/service/manual-timers';

const options = [
  { optionId: 'allow', kind: 'allow_once' },
  { optionId: 'always', kind: 'allow_always' },
  { optionId: 'reject', kind: 'reject_once' },
];

describe('PermissionBroker', () => {
  it('resolves an open request once; a second answer finds it closed', async () => {
    const broker = new PermissionBroker(new ManualTimers());
    const pending = broker.request('p1', options);
    expect(broker.resolve('p1', 'nope')).toBe('bad-option');
    expect(broker.resolve('p1', 'allow')).toBe('resolved');
    expect(broker.resolve('p1', 'allow')).toBe('not-open');
    await expect(pending).resolves.toEqual({ outcome: 'selected', optionId: 'allow', by: 'person' });
  });

  it('denies an unanswered request after exactly 10 minutes', async () => {
    const timers = new ManualTimers(0);
    const broker = new PermissionBroker(timers);
    const pending = broker.request('p1', options);
    timers.advance(PERMISSION_TIMEOUT_MS - 1);
    expect(broker.isOpen('p1')).toBe(true);
    timers.advance(1);
    expect(broker.isOpen('p1')).toBe(false);
    await expect(pending).resolves.toEqual({ outcome: 'selected', optionId: 'reject', by: 'expired' });
    expect(broker.resolve('p1', 'allow')).toBe('not-open');
  });

  it('expires to cancelled when no reject option exists, and cancelAll settles the rest', async () => {
    const timers = new ManualTimers(0);
    const broker = new PermissionBroker(timers);
    const a = broker.request('a', [{ optionId: 'ok', kind: 'allow_once' }]);
    const b = broker.request('b', options);
    timers.advance(PERMISSION_TIMEOUT_MS);
    await expect(a).resolves.toEqual({ outcome: 'cancelled', by: 'expired' });
    await expect(b).resolves.toMatchObject({ by: 'expired' });
    const c = broker.request('c', options);
    broker.cancelAll();
    await expect(c).resolves.toEqual({ outcome: 'cancelled', by: 'turn-ended' });
    expect(timers.pendingCount).toBe(0);
  });

  it('auto mode picks allow-once', () => {
    expect(autoAllowOption(options)).toBe('allow');
    expect(autoAllowOption([{ optionId: 'x', kind: 'reject_once' }])).toBeNull();
  });
});
