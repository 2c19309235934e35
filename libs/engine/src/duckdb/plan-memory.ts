/**
 * The plan of the last SQL validated under each temp id, for `explain(tmpId)`. SQL targets create
 * nothing in the database during validation, so this in-process memory is all there is: bounded,
 * oldest first out, and empty in a process that did not run the `validate` (see `explainSql`).
 */
export class PlanMemory {
  private readonly plans = new Map<string, { sql: string; plan: string }>();

  constructor(private readonly capacity = 256) {}

  remember(tmpId: string, sql: string, plan: string): void {
    // Re-inserting moves the id to the newest end, so eviction drops the least recently validated.
    this.plans.delete(tmpId);
    this.plans.set(tmpId, { sql, plan });
    while (this.plans.size > this.capacity) {
      const oldest = this.plans.keys().next();
      if (oldest.done) break;
      this.plans.delete(oldest.value);
    }
  }

  get(tmpId: string): { sql: string; plan: string } | undefined {
    return this.plans.get(tmpId);
  }

  forget(tmpId: string): void {
    this.plans.delete(tmpId);
  }
}
