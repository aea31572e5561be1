import type { EngineEvent } from '../engine/types';
import type { ConversationRuntime } from './conversation-runtimes';
import type { Turn } from './turn-record';
import { isTerminal } from '../../shared/api';

/**
 * Turns one engine event into the conversation's stream event, and keeps what the turn's close
 * needs (the reply text, the tokens) and the latest models. Events of a turn no longer current are dropped.
 */
export function fanOutEngineEvent(rt: ConversationRuntime, turn: Turn, event: EngineEvent): void {
  if (rt.current !== turn || isTerminal(turn.state)) return;
  switch (event.type) {
    case 'chunk':
      turn.reply += event.text;
      rt.log.append('chunk', { text: event.text, turnId: turn.turnId });
      break;
    case 'thought':
      rt.log.append('thought', { text: event.text });
      break;
    case 'tool': {
      const { type: _type, ...tool } = event;
      rt.log.append('tool', tool);
      break;
    }
    case 'models':
      rt.models = { options: event.options, current: event.current };
      rt.log.append('models', { options: event.options, current: event.current });
      break;
    case 'usage': {
      const { type: _type, ...usage } = event;
      turn.tokens = usage.input + usage.output;
      rt.log.append('usage', usage);
      break;
    }
    case 'caps':
      rt.log.append('caps', { image: event.image });
      break;
    case 'title':
      // Used when the turn closes, and only if the conversation is still untitled (turn-manager.ts).
      turn.agentTitle = event.title;
      break;
  }
}
