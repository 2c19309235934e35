/**
 * Streams text deltas to `send` one write at a time: deltas that arrive while the previous
 * write is in flight go out together, as one. A live client still sees text as soon as the
 * store can take it (nothing waits on a timer), while a fast stream costs one write, and one
 * wake-up of every follower, per round trip instead of per token.
 */
export class CoalescedDeltas {
  private buffered = '';
  private sending = false;
  private drained: Promise<void> = Promise.resolve();
  private failure: { err: unknown } | null = null;

  constructor(private readonly send: (text: string) => Promise<void>) {}

  /** Queues `delta`; it goes out with the next write (now, when none is in flight). */
  readonly push = (delta: string): void => {
    if (!delta) return;
    this.buffered += delta;
    if (!this.sending) this.drained = this.pump();
  };

  /** Resolves once everything pushed is written; rejects with the first write that failed. */
  async flush(): Promise<void> {
    await this.drained;
    if (this.failure) throw this.failure.err;
  }

  private async pump(): Promise<void> {
    this.sending = true;
    try {
      while (this.buffered) {
        const text = this.buffered;
        this.buffered = '';
        await this.send(text);
      }
    } catch (err) {
      this.failure ??= { err };
      // What was left is dropped: the node fails with the first failure anyway.
      this.buffered = '';
    } finally {
      // Cleared in the same step that saw the buffer empty, so a later push starts a new pump.
      this.sending = false;
    }
  }
}
