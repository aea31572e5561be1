import type { ToolAbout } from '../../shared/api';
import { LENT_TOOLS, MACHINE_EXTENSIONS } from './service-tools';

/** The service's lent tools (`tools.gs`) and the machine's extensions, named for the person. */
const WORDS: Record<string, ToolAbout> = {
  account_files: {
    label: 'Your file library',
    description: 'The agent can list the files in your library and link to them.',
  },
  send_file: {
    label: 'Send you a file',
    description: 'The agent can put a file from its workspace in your library and give you its link.',
  },
  connectors: {
    label: 'Your connected services',
    description: 'The agent can see which services you have connected.',
  },
  developer: {
    label: 'Files and commands',
    description: 'The agent can read and edit files and run commands in its workspace.',
  },
  todo: {
    label: 'To-do list',
    description: 'The agent keeps a task list while it works through a longer job.',
  },
  analyze: {
    label: 'Code analysis',
    description: 'The agent can map a codebase’s structure to understand it faster.',
  },
};

/** Every tool name the service knows, with its words (our extension `about.tools` of GET agents/{id}) (a name without words is shown as it is). */
export function aboutTools(): Record<string, ToolAbout> {
  const names = [...LENT_TOOLS.map((t) => t.name), ...MACHINE_EXTENSIONS];
  return Object.fromEntries(names.flatMap((name) => (WORDS[name] ? [[name, WORDS[name]]] : [])));
}
