import type { ChatParams } from '../../core/chat/protocol/chatProtocol';
import { NUMBER_PARAMS } from '../../core/numberParams';
import { asServiceParameters, mergeServiceParameters, sanitizeParams } from '../../core/chat/params';
import { DEFAULT_CONTEXT_CAP_CHARS } from '../../core/chat/mentions/mentionText';
import { NUMBER_RULES } from '../../core/settings/settingsCheck';
import { readSetting } from '../shared/config';

/** Service parameters set for one key (environment name or model id) of a by-key setting. */
function serviceParametersFor(byKey: Record<string, unknown>, key: string | undefined): Record<string, unknown> | undefined {
  return key !== undefined && Object.hasOwn(byKey, key) ? asServiceParameters(byKey[key]) : undefined;
}

/** The chat parameters from settings, for answers in `env` by `model`. */
export function chatDefaults(env: string, model?: string): ChatParams {
  return sanitizeParams({
    systemPrompt: readSetting('inference.chat.systemPrompt'),
    ...Object.fromEntries(NUMBER_PARAMS.map((param) => [param.wire, readSetting(param.setting)])),
    service_parameters: mergeServiceParameters(
      serviceParametersFor(readSetting('inference.serviceParameters.byEnvironment'), env),
      serviceParametersFor(readSetting('inference.serviceParameters.byModel'), model),
    ),
  });
}

/** One attachment's cap in characters; a value out of the setting's range (the settings check reports it) means the default. */
export function contextCapChars(): number {
  const value = readSetting('inference.chat.maxContextCharacters');
  const rule = NUMBER_RULES['inference.chat.maxContextCharacters'];
  return Number.isInteger(value) && rule !== undefined && value >= rule.min && value <= rule.max ? value : DEFAULT_CONTEXT_CAP_CHARS;
}
