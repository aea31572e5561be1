#!/usr/bin/env node
// The `agentdesk` command: runs the TypeScript CLI through tsx (no separate build step yet).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
