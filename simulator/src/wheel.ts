// One shared timer for every device: a hashed timer wheel driven by a single interval. Each device
// keeps at most one live entry (its next wake-up); rescheduling bumps a generation number so stale
// entries are skipped instead of searched for and removed.

export interface Wakeable {
  /** Generation of the live entry; entries with another value are stale. */
  wakeGen: number;
  wake(now: number): void;
}

interface Entry {
  due: number;
  gen: number;
  target: Wakeable;
}

export class TimerWheel {
  private readonly slots: Entry[][];
  private cursor: number;
  private timer: NodeJS.Timeout | undefined;
  private size = 0;

  constructor(
    readonly tickMs = 50,
    readonly slotCount = 2048,
    private readonly now: () => number = Date.now,
  ) {
    this.slots = Array.from({ length: slotCount }, () => []);
    this.cursor = Math.floor(this.now() / tickMs);
  }

  get pending(): number {
    return this.size;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.run(), this.tickMs);
    // The wheel alone must not keep a process alive (sockets and the CLI do).
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Schedules `target` to wake at `at` (epoch ms), replacing its previous entry. */
  schedule(target: Wakeable, at: number): void {
    const gen = ++target.wakeGen;
    const tick = Math.max(Math.floor(at / this.tickMs), this.cursor + 1);
    this.slots[tick % this.slotCount].push({ due: at, gen, target });
    this.size++;
  }

  cancel(target: Wakeable): void {
    target.wakeGen++;
  }

  /** Processes every slot up to now. Public so tests can drive it without the interval. */
  run(): void {
    const nowMs = this.now();
    const last = Math.floor(nowMs / this.tickMs);
    // After a long pause (debugger, suspended laptop) do at most one turn of the wheel.
    if (last - this.cursor > this.slotCount) this.cursor = last - this.slotCount;
    while (this.cursor < last) {
      this.cursor++;
      const idx = this.cursor % this.slotCount;
      const slot = this.slots[idx];
      if (!slot.length) continue;
      this.slots[idx] = [];
      const horizon = (this.cursor + 1) * this.tickMs;
      for (const e of slot) {
        if (e.gen !== e.target.wakeGen) {
          this.size--;
          continue;
        }
        if (e.due >= horizon) {
          // Further than one turn away: keep it for a later pass over this slot.
          this.slots[idx].push(e);
          continue;
        }
        this.size--;
        try {
          e.target.wake(nowMs);
        } catch (err) {
          // One device's bug must not stop the others.
          process.emitWarning(`simulated device failed: ${(err as Error).message}`);
        }
      }
    }
  }
}
