import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DEFAULT_EMAIL,
  DEFAULT_PASSWORD,
  ensurePerson,
  firstAgentId,
  signIn,
  startTestService,
} from './local-service';
import { freePort, startServiceProcess, type ServiceProcess } from './service-process';

/**
 * The service as a server for several computers: `processes` real service processes (`npm run service`,
 * spawned) sharing one data folder and, when `database` is set, one PostgreSQL database (without it, the
 * libsql file: then keep to one process). The people are made, and signed in once, before any process
 * starts; their tokens are in the store, so every process accepts them.
 */
export interface SharedServer {
  processes: ServiceProcess[];
  dataDir: string;
  people: { email: string; password: string; token: string; agentId: string }[];
  /** SIGKILLs every process still running and deletes the data folder. */
  stop(): Promise<void>;
}

export async function startSharedServer(options: {
  processes: number;
  database: string | null;
  people?: { email: string; password: string }[];
  /** More of config.json, e.g. `{cluster: {leaseMs}}`. */
  config?: object;
}): Promise<SharedServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-shared-server-'));
  const config = { ...options.config, ...(options.database ? { database: options.database } : {}) };
  await writeFile(join(dataDir, 'config.json'), JSON.stringify(config));
  const processes: ServiceProcess[] = [];
  const stop = async () => {
    await Promise.all(processes.map((p) => p.kill('SIGKILL')));
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const setup = await startTestService({ dataDir });
    const people: SharedServer['people'] = [];
    try {
      for (const person of options.people ?? [{ email: DEFAULT_EMAIL, password: DEFAULT_PASSWORD }]) {
        await ensurePerson(setup, person.email, person.password);
        const token = (await signIn(setup, person)).access_token;
        people.push({ ...person, token, agentId: await firstAgentId(setup, token) });
      }
    } finally {
      await setup.close();
    }
    for (let i = 0; i < options.processes; i++) {
      processes.push(await startServiceProcess({ port: await freePort(), dataDir }));
    }
    return { processes, dataDir, people, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
