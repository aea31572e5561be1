/**
 * The thread that reads an OpenAPI document (extension-operations-reader.ts starts one per document): it is
 * handed the text and answers only the operationIds marked as ours, so the long parse never holds the host's
 * event loop. It ends once it has answered.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { extensionOperations } from './extension-operations';

parentPort!.postMessage(extensionOperations(workerData as string));
