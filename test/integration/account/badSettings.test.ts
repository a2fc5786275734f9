import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { isApiError } from '../../../src/core/api/errors';
import type { RequestPurpose } from '../../../src/host/shared/settingsProblems';
import type { Emulator } from '../../emulator';
import { useEmulatorSuite } from '../support/emulatorSetup';

interface BadSetting {
  what: string;
  setting: string;
  value: (emulator: Emulator) => unknown;
  /** The request that must be refused. */
  purpose: RequestPurpose;
  message: RegExp;
}

const environments = (baseUrl: string, keyPrefix: string) => ({ production: { baseUrl, keyPrefix } });

/** Issue 12, item 4: each bad setting gets one clear message naming it, and nothing is sent. */
describe('Bad settings: one message naming the setting, nothing sent', () => {
  const { services, emulator } = useEmulatorSuite({ keys: ['production'] });

  // One bad setting per kind of request it stops, and one of the environment's choice: the path from
  // settings to refusal runs here; every sentence and what it stops is checked in the unit tier
  // (test/unit/settings/settingsCheck.test.ts, "every bad setting").
  const cases: BadSetting[] = [
    { what: 'a malformed base URL', setting: 'inference.environments', value: (e) => environments('127.0.0.1:8787/api/v1', e.keyPrefix), purpose: 'other', message: /base URL of "production" \("127\.0\.0\.1:8787\/api\/v1"\) is not a valid URL/ },
    { what: 'an unknown active environment', setting: 'inference.activeEnvironment', value: () => 'staging', purpose: 'other', message: /"inference\.activeEnvironment" names "staging", which is not in "inference\.environments" \(configured: "production", "preview"\)/ },
    { what: 'a negative timeout', setting: 'inference.timeouts.connectSeconds', value: () => -5, purpose: 'other', message: /"inference\.timeouts\.connectSeconds" is -5: it must be a number of seconds from 1 to 600/ },
    { what: 'an absurd temperature', setting: 'inference.chat.temperature', value: () => 40, purpose: 'chat', message: /"inference\.chat\.temperature" is 40: it must be a number from 0 to 2, or null/ },
    { what: 'a size list with an entry that is not a size', setting: 'inference.images.sizePresets', value: () => ['1024x768', 'huge'], purpose: 'image', message: /"inference\.images\.sizePresets" contains .*huge/ },
  ];
  /** Messages shown per case (the figure the issue asks for: one each). */
  const shownPerCase: number[] = [];

  after(() => {
    console.log(`      bad settings: ${shownPerCase.reduce((a, b) => a + b, 0)} messages shown for ${cases.length} bad settings (${shownPerCase.filter((n) => n === 1).length} with exactly one), requests sent: 0 per case`);
  });

  for (const bad of cases) {
    it(`${bad.what}: ${bad.setting}`, async () => {
      const config = vscode.workspace.getConfiguration();
      const before = config.inspect(bad.setting)?.globalValue;
      const shownBefore = services().settings.notices.length;
      const toldBefore = services().settings.told.length;
      await config.update(bad.setting, bad.value(emulator()), vscode.ConfigurationTarget.Global);
      try {
        for (let attempt = 0; attempt < 3; attempt++) {
          const refused = await services().api.client(undefined, undefined, bad.purpose).then(
            (client) => (bad.purpose === 'other' ? client.listModels() : undefined),
          ).then(() => undefined, (error: unknown) => error);
          assert.ok(isApiError(refused) && refused.kind === 'notConfigured', `attempt ${attempt + 1} was refused: ${String(refused)}`);
          assert.match(refused.message, bad.message);
          await services().errors.present(refused, { source: 'bad settings test' });
        }
        const shown = services().settings.notices.slice(shownBefore);
        shownPerCase.push(shown.length);
        assert.equal(shown.length, 1, `exactly one message: ${JSON.stringify(shown)}`);
        assert.match(shown[0], bad.message);
        assert.ok(shown[0].includes(`"${bad.setting}"`), 'the message names the setting');
        // Each refusal the user is shown (issue 27, item 9) says the same sentence again, not a reminder.
        assert.deepEqual(services().settings.told.slice(toldBefore), [shown[0], shown[0], shown[0]]);
        // VS Code's background refresh of the language models' list (`type=chat`) may still be on its way from the last good settings.
        assert.equal(emulator().requests.filter((r) => !r.path.includes('type=chat')).length, 0, 'nothing was sent');
      } finally {
        await config.update(bad.setting, before, vscode.ConfigurationTarget.Global);
      }
      // Fixed: requests go through again.
      await (await services().api.client('production')).listModels();
      assert.equal(services().settings.current().length, 0);
    });
  }
});
