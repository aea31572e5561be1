/**
 * Scripted model providers for tests: real HTTP servers on 127.0.0.1 speaking the OpenAI
 * chat-completions and Anthropic messages protocols, answering from a queue of scripted replies and
 * recording every request. Keys in tests are obviously fake (`test-key-openai`).
 */
export { startOpenAiServer } from './openai-server';
export { startAnthropicServer } from './anthropic-server';
export type { RecordedRequest, ScriptedProvider, ScriptedProviderOptions } from './scripted-server';
export type { ScriptedFailure, ScriptedReply, ScriptedToolCall, ScriptedTurn } from './script';
