import * as assert from 'node:assert/strict';
import * as l10n from '@vscode/l10n';
import { checkApiKeyFormat } from '../../../src/core/api/apiKey';
import { actionsForError } from '../../../src/core/errorActions';
import { checkNumberSetting } from '../../../src/core/settings/settingsCheck';

/** What the extension does at activation with VS Code's bundle, here with a made-up language. */
const PSEUDO_BUNDLE: Record<string, string> = {
  'The API key does not start with the expected prefix "{0}" for this environment. Check that you copied the whole key, from the right environment.':
    'La clé ne commence pas par « {0} ».',
  'Setting "{0}" is {1}: it must be {2}. {3}': '« {0} » vaut {1} : il faut {2}. {3}',
  'a whole number of retries': 'un nombre entier de tentatives',
  '{0} from {1} to {2}': '{0} de {1} à {2}',
  'Nothing is sent until it is fixed.': 'Rien n’est envoyé.',
  'Set API Key': 'Définir la clé',
};

describe('core messages follow the configured l10n bundle', () => {
  afterEach(() => l10n.config({ contents: {} }));

  it('are English with no bundle', () => {
    assert.match(checkApiKeyFormat('abc', 'sk-')?.message ?? '', /^The API key does not start with the expected prefix "sk-"/);
  });

  it('translate an ApiError message, its placeholders filled', () => {
    l10n.config({ contents: PSEUDO_BUNDLE });
    const error = checkApiKeyFormat('abc', 'sk-');
    assert.equal(error?.kind, 'invalidKey');
    assert.equal(error?.message, 'La clé ne commence pas par « sk- ».');
  });

  it('translate a settings problem built from translated parts', () => {
    l10n.config({ contents: PSEUDO_BUNDLE });
    assert.equal(
      checkNumberSetting('inference.rateLimit.maxRetries', 99)?.message,
      '« inference.rateLimit.maxRetries » vaut 99 : il faut un nombre entier de tentatives de 0 à 10. Rien n’est envoyé.',
    );
  });

  it('translate error action labels when they are asked for, not when the module loaded', () => {
    l10n.config({ contents: PSEUDO_BUNDLE });
    assert.deepEqual(actionsForError('missingKey').map((action) => action.label), ['Définir la clé', 'Open Logs']);
  });
});
