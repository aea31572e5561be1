#!/usr/bin/env node
// The `agentdesk` command: the built CLI (`npm run build` makes out/node/; an installed package ships it).
import { existsSync } from 'node:fs';

const built = new URL('../out/node/cli.js', import.meta.url);
if (!existsSync(built)) {
  console.error('agentdesk: the CLI is not built yet. Run `npm run build` in the AgentDesk folder first.');
  process.exit(1);
}
await import(built.href);
