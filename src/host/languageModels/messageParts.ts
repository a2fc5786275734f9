import vscode = require('vscode');
import { isRecord } from '../../core/json';
import type { NeutralMessage, NeutralPart } from '../../core/languageModels/messages';

/** LanguageModelChatMessageRole.System exists at run time in newer VS Code (a proposed API in 1.104). */
const SYSTEM_ROLE = 3;

/** The text of a tool result's content: text parts as they are, prompt-tsx and other data as JSON. */
function resultText(content: readonly unknown[]): string {
  return content.map((item) => {
    if (item instanceof vscode.LanguageModelTextPart) return item.value;
    if (isRecord(item) && typeof item.value === 'string') return item.value;
    if (item instanceof vscode.LanguageModelPromptTsxPart) return JSON.stringify(item.value);
    // A data part (newer VS Code) of a textual type, such as JSON a tool returned; images cannot be sent.
    if (isRecord(item) && typeof item.mimeType === 'string' && item.data instanceof Uint8Array) {
      return /^text\/|json|xml/i.test(item.mimeType) ? new TextDecoder().decode(item.data) : '';
    }
    return isRecord(item) && 'value' in item ? JSON.stringify(item.value) : '';
  }).join('');
}

function toPart(part: unknown): NeutralPart | undefined {
  if (part instanceof vscode.LanguageModelTextPart) return { kind: 'text', text: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart) return { kind: 'toolCall', callId: part.callId, name: part.name, input: part.input };
  if (part instanceof vscode.LanguageModelToolResultPart) return { kind: 'toolResult', callId: part.callId, text: resultText(part.content) };
  // Parts from another copy of the API classes: recognised by shape. Anything else (images, thinking,
  // cache hints) is not something this service takes, and is left out.
  if (!isRecord(part)) return undefined;
  if (typeof part.callId === 'string' && typeof part.name === 'string' && isRecord(part.input)) {
    return { kind: 'toolCall', callId: part.callId, name: part.name, input: part.input };
  }
  if (typeof part.callId === 'string' && Array.isArray(part.content)) return { kind: 'toolResult', callId: part.callId, text: resultText(part.content) };
  // A text part may carry an audience; a thinking part (value plus id) or a data part must not pass as text.
  if (typeof part.value === 'string' && !('id' in part) && !('mimeType' in part)) return { kind: 'text', text: part.value };
  return undefined;
}

export function toNeutralMessage(message: vscode.LanguageModelChatRequestMessage): NeutralMessage {
  const role = message.role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : (message.role as number) === SYSTEM_ROLE ? 'system' : 'user';
  const parts: NeutralPart[] = [];
  for (const part of message.content) {
    const neutral = toPart(part);
    if (neutral) parts.push(neutral);
  }
  return { role, parts };
}
