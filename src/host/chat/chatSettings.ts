import type { ChatParams } from '../../core/chatProtocol';
import { sanitizeParams } from '../../core/chat/params';
import { readSetting } from '../config';

/** The chat parameters from settings. */
export function chatDefaults(): ChatParams {
  return sanitizeParams({
    systemPrompt: readSetting('inference.chat.systemPrompt'),
    temperature: readSetting('inference.chat.temperature'),
    top_p: readSetting('inference.chat.topP'),
    max_tokens: readSetting('inference.chat.maxTokens'),
  });
}
