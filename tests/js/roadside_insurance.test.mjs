// Issue 11, "the roadside verdict shows an expired insurance": the field data's insurance_until
// (the end of the last policy recorded in the back office) becomes the registry fact the packs
// judge at the roadside, and an expired policy fails each law's insurance requirement.
import test from 'node:test';
import assert from 'node:assert/strict';
import { nodeIo } from './rules_io.mjs';
import { registryFactsOf } from '../../pwa/js/fiscal/inspection.js';
import { evaluate, loadMunicipality } from '../../pwa/js/rules/index.js';

const io = { ...nodeIo, packsDir: 'shared_rules/packs', configDir: 'shared_rules/config' };
const DAY = '2026-06-10';

for (const [slug, requirement, citation] of [['sapezal', 'sap.req.seguro', '4'], ['paranatinga', 'par.req.seguro', '28']]) {
  test(`${slug}: a policy that ended yesterday fails ${requirement} (art. ${citation}); one in force passes`, () => {
    const pack = loadMunicipality(slug, io);
    const expired = evaluate(pack, DAY, registryFactsOf({ vehicle: { insurance_until: '2026-06-09' } }));
    const failed = expired.failed.find((f) => f.requirement === requirement);
    assert.ok(failed, `${requirement} should fail: ${JSON.stringify(expired.failed.map((f) => f.requirement))}`);
    const inForce = evaluate(pack, DAY, registryFactsOf({ vehicle: { insurance_until: '2026-06-10' } }));
    assert.ok(inForce.passed.includes(requirement));
    assert.ok(!inForce.failed.some((f) => f.requirement === requirement));
  });
}

test('no policy recorded: the insurance is unknown at the roadside, never presumed in force', () => {
  const pack = loadMunicipality('sapezal', io);
  const result = evaluate(pack, DAY, registryFactsOf({ vehicle: {} }));
  assert.ok(!result.passed.includes('sap.req.seguro'));
  assert.ok(!result.failed.some((f) => f.requirement === 'sap.req.seguro'));
});
