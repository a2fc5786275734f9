import * as vscode from 'vscode';

export const VENDOR = 'inference';

export interface Collected {
  text: string;
  parts: unknown[];
  toolCalls: vscode.LanguageModelToolCallPart[];
  error?: unknown;
}

/**
 * Sends a request as another extension would and drains the stream, keeping what arrived before a
 * failure. A failure may reject sendRequest itself or the stream; both end up in `error`.
 */
export async function collect(
  model: vscode.LanguageModelChat,
  messages: vscode.LanguageModelChatMessage[],
  options: vscode.LanguageModelChatRequestOptions = {},
  token?: vscode.CancellationToken,
  onPart?: (part: unknown) => void,
): Promise<Collected> {
  const collected: Collected = { text: '', parts: [], toolCalls: [] };
  try {
    const response = await model.sendRequest(messages, options, token);
    for await (const part of response.stream) {
      collected.parts.push(part);
      if (part instanceof vscode.LanguageModelTextPart) collected.text += part.value;
      if (part instanceof vscode.LanguageModelToolCallPart) collected.toolCalls.push(part);
      onPart?.(part);
    }
  } catch (error) {
    collected.error = error;
  }
  return collected;
}

export async function inferenceModels(): Promise<vscode.LanguageModelChat[]> {
  return vscode.lm.selectChatModels({ vendor: VENDOR });
}

export async function model(id: string): Promise<vscode.LanguageModelChat> {
  const [found] = await vscode.lm.selectChatModels({ vendor: VENDOR, id });
  if (!found) throw new Error(`VS Code lists no ${VENDOR} model ${id}`);
  return found;
}

/** A promise for the next vscode.lm.onDidChangeChatModels, bounded so that a missing event fails the test. */
export function nextModelsChange(timeoutMs = 5000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(`vscode.lm.onDidChangeChatModels did not fire within ${timeoutMs} ms`));
    }, timeoutMs);
    const subscription = vscode.lm.onDidChangeChatModels(() => {
      clearTimeout(timer);
      subscription.dispose();
      resolve();
    });
  });
}

export function isLanguageModelError(error: unknown, code: string): error is vscode.LanguageModelError {
  return error instanceof vscode.LanguageModelError && error.code === code;
}

/** The failure kind the provider puts in the LanguageModelError's cause (`insufficientCredits`, ...). */
export function causeKind(error: unknown): unknown {
  return ((error as { cause?: { code?: unknown } } | undefined)?.cause)?.code;
}

/**
 * Whether VS Code offers tools to the model: `capabilities.supportsToolCalling` of newer VS Code (1.139
 * in the harness), absent from @types/vscode 1.104; undefined where the host does not expose it.
 */
export function toolCalling(chat: vscode.LanguageModelChat): boolean | undefined {
  return (chat as { capabilities?: { supportsToolCalling?: boolean } }).capabilities?.supportsToolCalling;
}
