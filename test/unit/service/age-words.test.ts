import { describe, expect, it } from 'vitest';
import { ageWords } from '../../../src/service/pages/age-words';

const now = Date.UTC(2026, 10, 29, 12, 0, 0);
const ago = (ms: number) => ageWords(now - ms, now);
const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

describe('ageWords', () => {
  it('says an age in words, the same in every time zone', () => {
    expect(ago(5_000)).toBe('just now');
    expect(ago(-5_000)).toBe('just now'); // a clock a little ahead
    expect(ago(5 * minute)).toBe('5 minutes ago');
    expect(ago(1 * hour)).toBe('1 hour ago');
    expect(ago(26 * hour)).toBe('yesterday');
    expect(ago(3 * day)).toBe('3 days ago');
    expect(ago(15 * day)).toBe('2 weeks ago');
    expect(ago(45 * day)).toBe('last month');
    expect(ago(800 * day)).toBe('2 years ago');
  });
});
