import { newSessionEnvelope, type Envelope } from '@nl2p/envelope';
import { judgeTmpName, sessionToLookUp, type TmpFacts } from './tmp-verdict';

const SID = '0123456789abcdef0123456789abcdef';
const OURS = '0a1b2c3d';
const THEIRS = 'ffee0011';

/**
 * Every form of temp name the product has created, written out by hand rather than built with
 * today's id functions, so a change there cannot quietly drop an older form from the sweep.
 */
const FORMS = {
  // The first release: session, turn, attempt.
  plain: `__nl2pipeline_tmp__${SID}_2_1`,
  // With the deployment that made it, so janitors sharing a Manager tell theirs apart.
  deployed: `__nl2pipeline_tmp__${OURS}_${SID}_2_1`,
  // A dry run's input stream and pipeline: the attempt's name with `_dry`.
  dryRun: `__nl2pipeline_tmp__${OURS}_${SID}_2_1_dry`,
  // The dry run of a session checkpointed before deployments were named.
  plainDryRun: `__nl2pipeline_tmp__${SID}_2_1_dry`,
};

function session(over: Partial<Envelope> = {}): Envelope {
  const e = newSessionEnvelope({
    sessionId: SID,
    target: 'veloflux',
    maxAttempts: 3,
    sink: { type: 'nop', props: {} },
  });
  return {
    ...e,
    turn_id: 2,
    status: 'running',
    node: 'validate',
    validation: { ...e.validation, attempt: 1 },
    ...over,
  };
}

const facts = (id: string, over: Partial<TmpFacts> = {}): TmpFacts => ({
  id,
  ageMs: 1_000,
  deploymentId: OURS,
  session: null,
  tmpMaxAgeMs: 900_000,
  foreignTmpMaxAgeMs: 86_400_000,
  ...over,
});

describe('what a janitor sweep does with a temp name', () => {
  it.each(Object.entries(FORMS))('deletes a leaked name of the %s form once no turn owns it', (_form, id) => {
    const ended = session({ status: 'failed' });
    expect(judgeTmpName(facts(id, { session: ended }))).toEqual({ delete: 'unowned' });
  });

  it.each(Object.entries(FORMS))('keeps a name of the %s form while its turn is at validate', (_form, id) => {
    expect(judgeTmpName(facts(id, { session: session() }))).toEqual({ keep: 'owned' });
    // …unless it outlived any turn.
    expect(judgeTmpName(facts(id, { session: session(), ageMs: 900_000 }))).toEqual({ delete: 'too_old' });
  });

  it("keeps another deployment's names until far past any turn's lifetime", () => {
    const theirs = `__nl2pipeline_tmp__${THEIRS}_${SID}_2_1_dry`;
    expect(judgeTmpName(facts(theirs))).toEqual({ keep: 'foreign' });
    expect(judgeTmpName(facts(theirs, { ageMs: 86_400_000 }))).toEqual({ delete: 'foreign_too_old' });
    expect(sessionToLookUp(theirs, OURS)).toBeNull();
  });

  it('treats a name without a deployment whose session this store does not know as possibly foreign', () => {
    // Another deployment still on the first release may be validating with it right now.
    for (const id of [FORMS.plain, FORMS.plainDryRun]) {
      expect(sessionToLookUp(id, OURS)).toBe(SID);
      expect(judgeTmpName(facts(id, { session: null }))).toEqual({ keep: 'foreign' });
      expect(judgeTmpName(facts(id, { session: null, ageMs: 86_400_000 }))).toEqual({ delete: 'foreign_too_old' });
    }
    // A name with our deployment and no session is simply a leak of ours.
    expect(judgeTmpName(facts(FORMS.deployed, { session: null }))).toEqual({ delete: 'unowned' });
  });

  it('never judges a name under the prefix in no form the product makes', () => {
    for (const id of [
      '__nl2pipeline_tmp__junk',
      '__nl2pipeline_tmp__probe_filter_between',
      `__nl2pipeline_tmp__${SID.toUpperCase()}_2_1`,
      `__nl2pipeline_tmp__${SID}_2_1_dry_copy`,
      `__nl2pipeline_tmp__${OURS}_${SID}_2`,
      `__nl2pipeline_tmp__abc_4_2`,
    ]) {
      expect(judgeTmpName(facts(id, { ageMs: Number.MAX_SAFE_INTEGER }))).toEqual({ ignore: true });
      expect(sessionToLookUp(id, OURS)).toBeNull();
    }
  });
});
