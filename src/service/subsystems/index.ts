import { agentConfigSubsystem } from '../agent-config/subsystem';
import type { ServiceContext } from '../context';
import { engineSubsystem } from '../engine/subsystem';
import { turnsSubsystem } from '../turns/subsystem';

/** Something that starts with the service: sets its part of the context, registers hooks and disposers. */
export interface Subsystem {
  name: string;
  start(ctx: ServiceContext): void | Promise<void>;
}

/**
 * Started in order after identity and before the routes are mounted. Each area appends ONE line,
 * e.g. `engineSubsystem` (src/service/engine). Register disposers with `ctx.onClose`.
 */
export const subsystems: readonly Subsystem[] = [
  engineSubsystem, // engines
  turnsSubsystem, // conversations/turns
  agentConfigSubsystem, // agent-config
];
