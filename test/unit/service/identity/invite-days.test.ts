import { describe, expect, it } from 'vitest';
import { INVITE_LIFETIME_DAYS, inviteLifetimeDays } from '../../../../src/service/identity/invites';

// `invite add --days`: whole days from 1 to 365 in digits; everything else is refused (the command's test,
// accounts.test.ts, runs the real process with two of these).
describe('invite add --days', () => {
  it('takes whole days from 1 to 365, and the default when absent', () => {
    expect(inviteLifetimeDays(undefined)).toBe(INVITE_LIFETIME_DAYS);
    expect(inviteLifetimeDays('1')).toBe(1);
    expect(inviteLifetimeDays('30')).toBe(30);
    expect(inviteLifetimeDays('365')).toBe(365);
  });

  it('refuses parts of a day, zero, negatives, too many and what is not written in digits', () => {
    for (const raw of [
      '0.5',
      '1.0',
      '0',
      '00',
      '-1',
      '366',
      '1000',
      '1e2',
      '0x10',
      '',
      ' 2',
      '2 ',
      'two',
      'Infinity',
    ])
      expect(inviteLifetimeDays(raw), raw).toBeNull();
  });
});
