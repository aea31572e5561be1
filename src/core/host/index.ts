import { composeAreas } from './compose-areas';
import { hostAreas } from './host-areas';
import { createHostCore } from './host-core';
import type { DeskHost, HostOptions } from './host-options';
import { withMemory } from './memory/remembering-bridge';

export type { DeskHost, EmbeddedService, HostOs, HostOptions } from './host-options';

/**
 * Implements DeskBridge for every program (Electron, browser mode, CLI): the core (plumbing
 * and the areas others lean on, host-core.ts), then one area per part of the bridge, each
 * given only what it needs (host-areas.ts). See docs/architecture.md.
 */
export async function createHost(options: HostOptions): Promise<DeskHost> {
  const core = await createHostCore(options);
  const areas = composeAreas(hostAreas, core);
  let closed = false;
  return withMemory(core.memory, {
    ...areas.methods,
    activity: () => core.activity.snapshot(),
    async close() {
      if (closed) return;
      closed = true;
      areas.close();
      await core.close();
    },
  });
}
