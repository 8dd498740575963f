// Counters shared by every device of a run, plus an ack-latency histogram (log buckets: cheap to
// record, p95 within a bucket's width, which is all a load report needs).

const BUCKETS = 96;
const PER_OCTAVE = 6;

export interface SimStats {
  devices: number;
  /** Devices with a live link: an open TCP socket, the MQTT session, or a recent 2xx answer over HTTP. */
  connected: number;
  /** Devices logged in (TCP: login answered) and reporting. */
  online: number;
  sent: number;
  acked: number;
  ackTimeouts: number;
  ackLatencyMs: { avg: number; p50: number; p95: number; max: number };
  commands: number;
  commandReplies: number;
  alarms: number;
  connects: number;
  reconnects: number;
  errors: number;
  bytesOut: number;
  bytesIn: number;
  simTime: string;
}

export class Counters {
  sent = 0;
  acked = 0;
  ackTimeouts = 0;
  commands = 0;
  commandReplies = 0;
  alarms = 0;
  connects = 0;
  reconnects = 0;
  errors = 0;
  bytesOut = 0;
  bytesIn = 0;
  private latSum = 0;
  private latMax = 0;
  private readonly hist = new Uint32Array(BUCKETS);

  ack(latencyMs: number): void {
    this.acked++;
    const ms = Math.max(0, latencyMs);
    this.latSum += ms;
    if (ms > this.latMax) this.latMax = ms;
    const b = Math.min(BUCKETS - 1, Math.floor(Math.log2(ms + 1) * PER_OCTAVE));
    this.hist[b]++;
  }

  private quantile(q: number): number {
    if (!this.acked) return 0;
    const target = q * this.acked;
    let acc = 0;
    for (let b = 0; b < BUCKETS; b++) {
      acc += this.hist[b];
      // Upper edge of the bucket.
      if (acc >= target) return Math.round((2 ** ((b + 1) / PER_OCTAVE) - 1) * 10) / 10;
    }
    return this.latMax;
  }

  latency(): SimStats['ackLatencyMs'] {
    return {
      avg: this.acked ? Math.round((this.latSum / this.acked) * 10) / 10 : 0,
      p50: this.quantile(0.5),
      p95: this.quantile(0.95),
      max: Math.round(this.latMax * 10) / 10,
    };
  }
}

export class Clock {
  readonly realStart: number;
  readonly simStart: number;

  constructor(
    readonly speedup = 1,
    simStart?: number,
    private readonly wall: () => number = Date.now,
  ) {
    this.realStart = wall();
    this.simStart = simStart ?? this.realStart;
  }

  realNow(): number {
    return this.wall();
  }

  /** Simulated time now: it runs `speedup` times faster than the wall clock. */
  sim(real = this.wall()): number {
    return this.simStart + (real - this.realStart) * this.speedup;
  }

  toReal(sim: number): number {
    return this.realStart + (sim - this.simStart) / this.speedup;
  }
}
