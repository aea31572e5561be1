/**
 * The models area: the person's model providers and this computer's agent programs (our service's
 * extension, offered where `serverExtensions` lists `listModelProviders`). A key typed by the person
 * crosses here once, to the host; answers carry it masked only.
 */
import type {
  AccountAgentProgram,
  AccountModelProvider,
  AgentProgramChoice,
  NewModelProvider,
  ProgramEngine,
} from '../api';
import { bridgeArea } from './bridge-area';
import type { DeskResult } from './desk-result';

export interface ModelMethods {
  listModelProviders(): Promise<DeskResult<AccountModelProvider[]>>;
  /** Tried by the service (it lists the provider's models) and kept only if it works; refusals in its words. */
  addModelProvider(input: NewModelProvider): Promise<DeskResult<AccountModelProvider>>;
  /** Removes a provider added in Settings, and its key. */
  removeModelProvider(providerId: string): Promise<DeskResult<void>>;
  listAgentPrograms(): Promise<DeskResult<AccountAgentProgram[]>>;
  /** The service's owner only: what an engine place runs; the programs as after the change. */
  setAgentProgram(
    engine: ProgramEngine,
    choice: AgentProgramChoice,
  ): Promise<DeskResult<AccountAgentProgram[]>>;
}

export const modelsArea = bridgeArea<ModelMethods>()({
  calls: [
    'listModelProviders',
    'addModelProvider',
    'removeModelProvider',
    'listAgentPrograms',
    'setAgentProgram',
  ],
});
