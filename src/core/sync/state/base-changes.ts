/**
 * Counts a folder's base changes, and remembers the count of each key's latest one, so a listing
 * taken before some commits can leave those paths alone (remote-pass.ts). Only the latest changes
 * are told apart: past `kept` the older ones are forgotten (a first sync of 100,000 files forgets
 * its early ones).
 */
export class BaseChanges {
  private changes = 0;
  private readonly changedAt = new Map<string, number>();
  private forgottenUpTo = 0;

  constructor(private readonly kept = 10_000) {}

  /** How many base changes were noted: a mark for `since`. */
  get count(): number {
    return this.changes;
  }

  note(key: string): void {
    this.changes += 1;
    if (this.changedAt.size >= this.kept) {
      this.changedAt.clear();
      this.forgottenUpTo = this.changes - 1;
    }
    this.changedAt.set(key, this.changes);
  }

  /** The keys whose base changed after mark `mark`; undefined when changes that old are forgotten. */
  since(mark: number): Set<string> | undefined {
    if (mark < this.forgottenUpTo) return undefined;
    const keys = new Set<string>();
    for (const [key, at] of this.changedAt) if (at > mark) keys.add(key);
    return keys;
  }
}
