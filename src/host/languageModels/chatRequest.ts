import vscode = require('vscode');
import { readNumberParams } from '../../core/numberParams';
import { ApiError } from '../../core/api/errors';
import { toChatMessages } from '../../core/languageModels/messages';
import { estimateRequestTokens } from '../../core/languageModels/tokenEstimate';
import type { ChatRequest, ChatStreamEvent, ChatTool } from '../../core/api/types';
import { toNeutralMessage } from './messageParts';

/**
 * The service's request for a VS Code language model request: messages in the common chat format,
 * tools when the model takes them (as text otherwise), sampling options. Refused before anything is
 * sent (and billed): a required tool the model cannot get, and a request over the model's input limit.
 */
export function buildChatRequest(
  model: vscode.LanguageModelChatInformation,
  messages: readonly vscode.LanguageModelChatRequestMessage[],
  options: vscode.ProvideLanguageModelChatResponseOptions,
  toolsOn: boolean,
): ChatRequest {
  const offered = options.tools ?? [];
  const required = options.toolMode === vscode.LanguageModelChatToolMode.Required;
  if (!toolsOn && offered.length > 0 && required) {
    throw new ApiError('badRequest', `The model "${model.id}" is used without tools (it refused them, or "inference.languageModels.overrides" turns them off), so it cannot be required to call one.`);
  }
  const request: ChatRequest = {
    model: model.id,
    messages: toChatMessages(messages.map(toNeutralMessage), { toolsAsText: !toolsOn }),
    // A caller's `modelOptions` may set the chat's number parameters, each in the range the settings have.
    ...readNumberParams(options.modelOptions),
  };
  if (toolsOn && offered.length > 0) {
    request.tools = offered.map(toChatTool);
    request.tool_choice = required ? 'required' : 'auto';
  }
  const estimate = estimateRequestTokens(request.messages, request.tools);
  if (estimate > model.maxInputTokens) {
    throw new ApiError('badRequest', `This request is about ${estimate} tokens (estimated), more than the ${model.maxInputTokens} that "${model.id}" accepts, so it was not sent. Shorten it, or raise maxInputTokens for this model in "inference.languageModels.overrides".`);
  }
  return request;
}

/** Passes one stream event on as a response part; reasoning has no part type in VS Code 1.104's API. */
export function reportEvent(event: ChatStreamEvent, progress: vscode.Progress<vscode.LanguageModelResponsePart>): void {
  switch (event.type) {
    case 'delta':
      progress.report(new vscode.LanguageModelTextPart(event.text));
      return;
    case 'toolCall':
      // The core client lets out only calls to tools this request offered, with no prototype keys in their input.
      progress.report(new vscode.LanguageModelToolCallPart(event.call.id, event.call.name, event.call.input));
      return;
    case 'end':
      if (!event.complete) throw new ApiError('streamError', 'The answer stopped before the service finished it; what arrived so far was kept.');
      return;
    default:
      return;
  }
}

function toChatTool(tool: vscode.LanguageModelChatTool): ChatTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, ...(tool.inputSchema && { parameters: tool.inputSchema }) } };
}
