import { Worker } from 'node:worker_threads';
import { threadEntry } from '../common/thread-entry';
import { extensionOperations } from './extension-operations';

/**
 * The operationIds an OpenAPI document marks as ours, read on a thread of its own
 * (extension-operations-thread.ts): parsing our ~270 KB description held the host's event loop for 120-500 ms
 * at a start. The thread gets the text and hands back only the list. A thread that cannot start, fails or
 * ends without answering leaves the reading to this thread, as before: the list is still right, only slower.
 */
export function readExtensionOperations(yaml: string): Promise<string[]> {
  let worker: Worker;
  try {
    const entry = operationsEntry();
    worker = new Worker(entry, { workerData: yaml, eval: typeof entry === 'string' });
  } catch {
    return Promise.resolve(extensionOperations(yaml));
  }
  // Answered once the thread has ended, so nothing of it is left for later; its list, or on failure the
  // parse here (an error is followed by the end too).
  return new Promise((resolve) => {
    let answered: string[] | undefined;
    worker.once('message', (list: string[]) => (answered = list));
    worker.once('error', () => undefined);
    worker.once('exit', () => resolve(answered ?? extensionOperations(yaml)));
  });
}

/** The thread's code (common/thread-entry.ts): the Electron main process names its build. */
function operationsEntry(): URL | string {
  return threadEntry({
    named: process.env['AGENTDESK_EXTENSION_OPERATIONS_JS'],
    built: new URL('./extension-operations.js', import.meta.url),
    source: new URL('./extension-operations-thread.ts', import.meta.url),
  });
}
