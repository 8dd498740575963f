// Counters of the ingest path, served on GET /api/metrics as JSON (benchmarks) and in the Prometheus
// text format (plugins/observability.ts).

export class Metrics {
  /** Messages decoded from devices, of every transport. */
  received = 0;
  /** Messages written (committed) to the database. */
  committed = 0;
  /** Rows written to positions. */
  positions = 0;
  /** Messages from identities no device has (not stored). */
  unknown = 0;
  /**
   * Beacons a gateway heard that no device is (the other anchors, which calibration uses; passers-by):
   * handed on, neither stored nor logged as unknown devices, since no device spoke.
   */
  heardUnknown = 0;
  /** Undecodable input: garbage bytes, broken frames, bad JSON. */
  malformed = 0;
  /** Frames that decoded to nothing we store (and needed no reply). */
  ignored = 0;
  /** Messages whose batch failed to commit because the database was unavailable (the device was not acknowledged and resends). */
  failed = 0;
  /**
   * Messages the database refused on their own (found by splitting their batch): not acknowledged,
   * logged with their device; the other messages of the batch were stored.
   */
  refused = 0;
  batches = 0;
  /** Sum of batch durations (ms), for the mean. */
  batchMs = 0;
  maxBatchRows = 0;
  connectionsOpened = 0;
  connectionsClosed = 0;
  commandsSent = 0;
  autoRegistered = 0;
  /** Frames refused because they came from outside their device's allowed networks (not stored). */
  outsideNetwork = 0;
  /** Connections that named a device while it had another live connection in this process. */
  secondConnections = 0;
  /** Connections that named a device which kept talking on an earlier connection: they carry none of its commands. */
  sessionsBelied = 0;
  readonly startedAt = Date.now();
  /** Open device connections per protocol (TCP gateways). */
  readonly openByProtocol = new Map<string, number>();
  /** Told of each committed batch: its rows and how long it took (ms); the Prometheus histograms listen. */
  readonly batchListeners: ((rows: number, ms: number) => void)[] = [];

  batchCommitted(rows: number, ms: number) {
    this.batches++;
    this.batchMs += ms;
    this.committed += rows;
    if (rows > this.maxBatchRows) this.maxBatchRows = rows;
    for (const l of this.batchListeners) l(rows, ms);
  }

  connectionOpened(protocol: string) {
    this.connectionsOpened++;
    this.openByProtocol.set(protocol, (this.openByProtocol.get(protocol) ?? 0) + 1);
  }

  connectionClosed(protocol: string) {
    this.connectionsClosed++;
    this.openByProtocol.set(protocol, Math.max(0, (this.openByProtocol.get(protocol) ?? 1) - 1));
  }

  snapshot(extra: Record<string, number> = {}) {
    return {
      received: this.received,
      committed: this.committed,
      positions: this.positions,
      unknown: this.unknown,
      heardUnknown: this.heardUnknown,
      malformed: this.malformed,
      ignored: this.ignored,
      failed: this.failed,
      refused: this.refused,
      batches: this.batches,
      batchMs: Math.round(this.batchMs),
      meanBatchMs: this.batches ? Math.round((this.batchMs / this.batches) * 100) / 100 : 0,
      meanBatchRows: this.batches ? Math.round((this.committed / this.batches) * 10) / 10 : 0,
      maxBatchRows: this.maxBatchRows,
      connections: this.connectionsOpened - this.connectionsClosed,
      connectionsOpened: this.connectionsOpened,
      commandsSent: this.commandsSent,
      autoRegistered: this.autoRegistered,
      outsideNetwork: this.outsideNetwork,
      secondConnections: this.secondConnections,
      sessionsBelied: this.sessionsBelied,
      uptimeSeconds: Math.round((Date.now() - this.startedAt) / 1000),
      rssBytes: process.memoryUsage.rss(),
      ...extra,
    };
  }
}

/** Logs at most `perMinute` lines a minute for one kind of trouble, then says how many it skipped. */
export class RateLimitedLog {
  private windowStart = 0;
  private count = 0;
  private suppressed = 0;
  constructor(private readonly perMinute: number) {}

  /** True when this occurrence may be logged; `suppressed` tells how many were skipped before it. */
  allow(): { ok: boolean; suppressed: number } {
    const now = Date.now();
    if (now - this.windowStart > 60_000) {
      this.windowStart = now;
      this.count = 0;
    }
    if (this.count >= this.perMinute) {
      this.suppressed++;
      return { ok: false, suppressed: 0 };
    }
    this.count++;
    const s = this.suppressed;
    this.suppressed = 0;
    return { ok: true, suppressed: s };
  }
}
