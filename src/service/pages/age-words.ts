/**
 * How long ago something happened, in words ("5 minutes ago", "yesterday"). A page the service renders
 * cannot know the reader's time zone (a server's is not theirs), and an age is the same in every zone;
 * the exact moment stays in the `<time>` element's `datetime` and its tooltip.
 */
const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['week', 7 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
];

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

export function ageWords(then: number, now: number): string {
  const age = now - then;
  if (age < 60_000) return 'just now'; // a clock a little ahead says the same
  for (const [unit, ms] of units) if (age >= ms) return relative.format(-Math.floor(age / ms), unit);
  return 'just now';
}
