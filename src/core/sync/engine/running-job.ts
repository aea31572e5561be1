/**
 * The engine's one running job (a run of passes, or a conflict being settled): whatever asks for a pass
 * meanwhile waits for it. `current` never rejects; the job's own caller gets its error.
 */
export class RunningJob {
  current: Promise<void> | undefined;

  async run<T>(work: Promise<T>): Promise<T> {
    this.current = work.then(
      () => undefined,
      () => undefined,
    );
    try {
      return await work;
    } finally {
      this.current = undefined;
    }
  }

  /** Waits until no job runs (a job may start right after another). */
  async idle(): Promise<void> {
    while (this.current) await this.current;
  }
}
