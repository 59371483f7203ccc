// When the daemon dies, the client restarts it, unless it keeps dying: a
// daemon that crashed maxRestarts times within the window is left stopped
// (a restart loop would only hide the cause).

export class RestartPolicy {
  private crashes: number[] = [];

  constructor(
    private readonly maxRestarts = 4,
    private readonly windowMs = 3 * 60 * 1000,
  ) {}

  /** onCrash records a crash at now (ms) and says whether to restart. */
  onCrash(now: number): boolean {
    this.crashes = this.crashes.filter((t) => now - t < this.windowMs);
    this.crashes.push(now);
    return this.crashes.length <= this.maxRestarts;
  }

  /** The crashes counted within the window. */
  get recentCrashes(): number {
    return this.crashes.length;
  }

  reset(): void {
    this.crashes = [];
  }
}
