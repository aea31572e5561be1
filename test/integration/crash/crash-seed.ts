/**
 * The seeded randomness of the crash tests (issue 38, item 2): when to kill and what to write come from
 * one seed, printed at the start and in every failure, so a failing run is replayed with
 * `AGENTDESK_CRASH_SEED=<seed> npx vitest run <file>`. Without the variable each run draws a new seed,
 * so runs over time try different moments.
 */
export interface CrashRandom {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  between(min: number, max: number): number;
  /** The seed, for a failure message: "seed 123 (AGENTDESK_CRASH_SEED=123 to replay)". */
  replay(): string;
}

export function crashRandom(name: string): CrashRandom {
  const given = process.env['AGENTDESK_CRASH_SEED'];
  const seed = given ? Number(given) >>> 0 : Math.floor(Math.random() * 2 ** 32) >>> 0;
  // mulberry32: small, fast and plenty for picking moments.
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const random: CrashRandom = {
    seed,
    next,
    between: (min, max) => min + Math.floor(next() * (max - min + 1)),
    replay: () => `seed ${seed} (AGENTDESK_CRASH_SEED=${seed} to replay)`,
  };
  console.log(`${name}: crash ${random.replay()}`);
  return random;
}
