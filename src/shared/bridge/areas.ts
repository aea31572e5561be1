/**
 * Every area of the bridge, in the order carriers list their methods. A new area is one
 * file beside this one (see bridge-area.ts) plus its three lines here: the import, the
 * type export and its place in `bridgeAreas`.
 */
import { accountArea } from './account';
import { approvalRulesArea } from './approval-rules';
import { agentsArea } from './agents';
import { connectorsArea } from './connectors';
import { conversationsArea } from './conversations';
import { libraryArea } from './library';
import { memoryArea } from './memory';
import { modelsArea } from './models';
import { platformArea } from './platform';
import { schedulesArea } from './schedules';
import { sessionArea } from './session';
import { settingsArea } from './settings';
import { agentConfigArea } from './agent-config';
import { syncArea } from './sync';

export type * from './account';
export type * from './approval-rules';
export type * from './agents';
export type * from './connectors';
export type * from './conversations';
export type * from './library';
export type * from './memory';
export type * from './models';
export type * from './platform';
export type * from './schedules';
export type * from './session';
export type * from './settings';
export type * from './agent-config';
export type * from './sync';

export const bridgeAreas = [
  sessionArea,
  agentsArea,
  conversationsArea,
  schedulesArea,
  libraryArea,
  platformArea,
  syncArea,
  memoryArea,
  agentConfigArea,
  accountArea,
  connectorsArea,
  settingsArea,
  modelsArea,
  approvalRulesArea,
] as const;
