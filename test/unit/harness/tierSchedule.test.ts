import * as assert from 'node:assert/strict';
import { tiersToStart, type SchedulableTier } from '../../harness/tierSchedule';

const tier = (name: string, cores: number, needsProvisioning = false): SchedulableTier => ({ name, cores, needsProvisioning });
const names = (tiers: readonly SchedulableTier[]) => tiers.map((t) => t.name);

describe('npm test: which tiers start, within the machine\'s cores', () => {
  const ui = tier('ui', 1, true);
  const integration = tier('integration', 1, true);
  const unit = tier('unit', 1);
  const lint = tier('lint', 0.5);

  it('starts tiers in their order while the running ones leave room, and no more', () => {
    assert.deepEqual(names(tiersToStart([ui, integration, unit, lint], [], 2, true)), ['ui', 'integration']);
    assert.deepEqual(names(tiersToStart([unit, lint], [ui], 2, true)), ['unit']);
    assert.deepEqual(names(tiersToStart([unit, lint], [ui, integration], 2, true)), []);
  });

  it('lets a later tier that fits start before an earlier one that does not', () => {
    assert.deepEqual(names(tiersToStart([unit, lint], [tier('ui', 1.5)], 2, true)), ['lint']);
  });

  it('counts fractions exactly: tiers that fill the machine to the core still start', () => {
    assert.deepEqual(names(tiersToStart([tier('a', 0.7), tier('b', 0.2)], [tier('c', 0.1), tier('d', 1)], 2, true)), ['a', 'b']);
  });

  it('keeps the tiers that need Chromium or code-server until provisioning ends, and starts the others meanwhile', () => {
    assert.deepEqual(names(tiersToStart([ui, integration, unit, lint], [], 2, false)), ['unit', 'lint']);
  });

  it('starts a tier that needs more than the machine only alone, and one at a time when the budget is none (serial)', () => {
    assert.deepEqual(names(tiersToStart([tier('big', 3), unit], [], 2, true)), ['big']);
    assert.deepEqual(names(tiersToStart([tier('big', 3)], [unit], 2, true)), []);
    assert.deepEqual(names(tiersToStart([ui, unit, lint], [], 0, true)), ['ui']);
  });
});
