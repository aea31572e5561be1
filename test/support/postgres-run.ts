import { nameRunCluster, stopRunCluster } from './postgres';

/**
 * Global setup for vitest and Playwright: names the run's PostgreSQL cluster folder for every worker
 * (they inherit the variable) and returns the teardown that stops the cluster, if a test started it.
 */
export default function postgresRun(): () => Promise<void> {
  const dir = nameRunCluster();
  return () => stopRunCluster(dir);
}
