import * as l10n from '@vscode/l10n';
import { ApiError } from './errors';

/**
 * Local checks before a key is stored or sent: never echo the key itself in a message.
 * The service's literal prefix is not in the spec, so it is a setting; an empty prefix skips that check.
 */
export function checkApiKeyFormat(key: string | undefined, expectedPrefix = ''): ApiError | undefined {
  if (key === undefined || key.trim() === '') {
    return new ApiError('missingKey', l10n.t('No API key is set for this environment. Run "Inference: Set API Key".'));
  }
  if (/\s/.test(key)) {
    return new ApiError('invalidKey', l10n.t('The API key contains white space; paste it again exactly as shown at creation.'));
  }
  if (expectedPrefix && !key.startsWith(expectedPrefix)) {
    return new ApiError('invalidKey', l10n.t('The API key does not start with the expected prefix "{0}" for this environment. Check that you copied the whole key, from the right environment.', expectedPrefix));
  }
  return undefined;
}

/** `INFERENCE_API_KEY_<ENV>`: the environment variable automation uses to hand a key to the extension. */
export function apiKeyVariableName(env: string): string {
  return `INFERENCE_API_KEY_${env.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}
