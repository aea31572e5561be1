import { usePrivateUmask } from '../core/profiles/data-dir';
import { runCli } from './run-cli';
import { processIo } from './terminal';

usePrivateUmask();
const io = processIo();
runCli(process.argv.slice(2), { io })
  .then((code) => {
    io.close();
    process.exit(code);
  })
  .catch((error: unknown) => {
    io.err(`agentdesk: ${error instanceof Error ? error.message : String(error)}\n`);
    io.close();
    process.exit(1);
  });
