import type { ChatMessage, Envelope } from '@nl2p/envelope';

/** History keeps a short summary plus the last N messages (seed decision 3). */
export const HISTORY_LAST_N = 8;
const SUMMARY_MAX_CHARS = 1_000;
const MESSAGE_MAX_CHARS = 2_000;

export function remember(envelope: Envelope, role: ChatMessage['role'], content: string): Envelope {
  const messages = [...envelope.history.messages, { role, content: content.slice(0, MESSAGE_MAX_CHARS) }];
  let summary = envelope.history.summary;
  while (messages.length > HISTORY_LAST_N) {
    const dropped = messages.shift()!;
    summary = `${summary}\n${dropped.role}: ${dropped.content.slice(0, 200)}`.slice(-SUMMARY_MAX_CHARS).trim();
  }
  return { ...envelope, history: { summary, messages } };
}
