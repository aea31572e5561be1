import { describe, expect, it } from 'vitest';
import {
  canInstallNow,
  initialUpdateState,
  nextUpdateState,
  type UpdateEvent,
  type UpdateState,
} from '../../../src/core/host/platform/update-state';

const run = (events: UpdateEvent[], from: UpdateState = initialUpdateState) =>
  events.reduce(nextUpdateState, from);
const idle = { turnsRunning: 0, syncWriting: false };

describe('update state machine', () => {
  it('checks, downloads in the background with progress, then is ready', () => {
    expect(run([{ type: 'check-started' }]).phase).toBe('checking');
    const downloading = run([
      { type: 'check-started' },
      { type: 'available', version: '1.2.0' },
      { type: 'progress', percent: 41.6 },
    ]);
    expect(downloading).toMatchObject({ phase: 'downloading', version: '1.2.0', percent: 42 });
    const ready = nextUpdateState(downloading, { type: 'downloaded', version: '1.2.0', at: 5 });
    expect(ready).toEqual({ phase: 'ready', version: '1.2.0', lastCheckedAt: 5 });
  });

  it('says up to date when there is nothing new', () => {
    expect(run([{ type: 'check-started' }, { type: 'not-available', at: 7 }])).toEqual({
      phase: 'up-to-date',
      lastCheckedAt: 7,
    });
  });

  it('keeps a failed check for the About box, also after a later check succeeds', () => {
    const failed = run([{ type: 'check-started' }, { type: 'failed', message: 'offline', at: 3 }]);
    expect(failed).toEqual({ phase: 'failed', lastError: { message: 'offline', at: 3 }, lastCheckedAt: 3 });
    const later = run([{ type: 'check-started' }, { type: 'not-available', at: 9 }], failed);
    expect(later).toEqual({
      phase: 'up-to-date',
      lastCheckedAt: 9,
      lastError: { message: 'offline', at: 3 },
    });
  });

  it('never loses a downloaded update to a later check or failure', () => {
    const ready = run([
      { type: 'available', version: '2.0.0' },
      { type: 'downloaded', version: '2.0.0', at: 1 },
    ]);
    expect(run([{ type: 'check-started' }, { type: 'not-available', at: 2 }], ready)).toEqual(ready);
    const failed = run([{ type: 'failed', message: 'feed down', at: 4 }], ready);
    expect(failed).toMatchObject({ phase: 'ready', version: '2.0.0', lastError: { message: 'feed down' } });
  });

  it('ignores progress when not downloading and clamps it', () => {
    expect(run([{ type: 'progress', percent: 50 }])).toEqual(initialUpdateState);
    expect(
      run([
        { type: 'available', version: '1' },
        { type: 'progress', percent: 140 },
      ]).percent,
    ).toBe(100);
  });

  it('installs only when an update is ready and no reply runs and no sync writes', () => {
    const ready: UpdateState = { phase: 'ready', version: '2.0.0' };
    expect(canInstallNow(ready, idle)).toEqual({ install: true });
    expect(canInstallNow(ready, { turnsRunning: 1, syncWriting: false })).toMatchObject({
      install: false,
      reason: expect.stringContaining('reply'),
    });
    expect(canInstallNow(ready, { turnsRunning: 0, syncWriting: true })).toMatchObject({
      install: false,
      reason: expect.stringContaining('Sync'),
    });
    expect(canInstallNow({ phase: 'downloading', version: '2.0.0' }, idle).install).toBe(false);
  });
});
