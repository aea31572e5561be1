import type { Migration } from './types';
import { identity001 } from './001_identity';
import { conversations002 } from './002_conversations';
import { agentConfig003 } from './003_agent_config';
import { tryTurns004 } from './004_try_turns';
import { publicServer005 } from './005_public_server';
import { conversationForks006 } from './006_conversation_forks';
import { englishColumns007 } from './007_english_columns';
import { versionsAndRules008 } from './008_versions_and_rules';
import { modelProviders009 } from './009_model_providers';
import { restartNotice010 } from './010_restart_notice';

export type { Migration } from './types';

/**
 * Every schema step, in apply order. Each area appends ONE line with its own file
 * (002 conversations/turns, 003 agent-config, ...). Never edit a step that has shipped.
 */
export const migrations: readonly Migration[] = [
  identity001,
  conversations002,
  agentConfig003, // 003: agent-config
  tryTurns004, // 004: try turns, for the allowance
  publicServer005, // 005: sign-in failures and invitations
  conversationForks006, // 006: forked conversations (our extension)
  englishColumns007, // 007: the store's columns in English (issue 25)
  versionsAndRules008, // 008: conversation versions and approval rules (our extensions, issue 39)
  modelProviders009, // 009: the person's model providers (our extension, issue 37)
  restartNotice010, // 010: turns the service's close ended, told to subscribers at the next start
];
