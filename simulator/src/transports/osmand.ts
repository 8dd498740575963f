// A phone running OsmAnd / Traccar Client: an HTTP GET per fix to `/osmand` with the position in
// the query (speed in knots, as those apps send it). Every 2xx answer is the acknowledgement.
import http from 'node:http';
import type { SimEvent } from '../model.js';
import { SimDevice } from '../device.js';

const KNOT = 1.852;

export class OsmAndDevice extends SimDevice {
  private seq = 0;
  /** One pooled keep-alive agent per run, shared by its phones: sockets are reused between fixes. */
  agent: http.Agent | undefined;

  protected override get hasKeepalive(): boolean {
    return false;
  }

  protected open(): void {
    // Nothing to open: HTTP devices report as soon as they have a fix.
    this.loggedIn();
  }

  protected abort(): void {}

  close(): Promise<void> {
    this.connected = false;
    this.online = false;
    return Promise.resolve();
  }

  private get(params: Record<string, string | number | boolean>): void {
    const o = this.engine.options;
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) q.set(k, String(v));
    const path = `/osmand?${q.toString()}`;
    const key = ++this.seq;
    const c = this.engine.counters;
    const req = http.request(
      { host: o.host, port: o.ports.http, path, method: 'GET', agent: this.agent },
      (res) => {
        let n = 0;
        res.on('data', (d: Buffer) => (n += d.length));
        res.on('end', () => {
          c.bytesIn += n;
          const ok = (res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300;
          if (ok) {
            if (!this.connected) this.linkUp();
            this.acked(key);
          } else {
            this.connected = false;
            c.errors++;
          }
        });
      },
    );
    req.on('error', () => {
      this.connected = false;
      c.errors++;
    });
    req.end();
    this.sent(path.length + 64, key);
  }

  private fixParams(sim: number): Record<string, string | number | boolean> {
    const f = this.model.fix();
    const h = this.model.health;
    return {
      id: this.imei,
      lat: f.lat.toFixed(6),
      lon: f.lon.toFixed(6),
      timestamp: Math.floor(sim / 1000),
      speed: (f.speed / KNOT).toFixed(2),
      bearing: f.course,
      altitude: f.altitude,
      accuracy: f.accuracy,
      valid: f.valid,
      batt: h.batteryPercent(),
      charge: h.charging,
    };
  }

  protected sendReport(sim: number): void {
    this.get(this.fixParams(sim));
  }

  protected sendKeepalive(): void {}
  protected sendHealth(): void {}

  protected sendAlarm(sim: number, event: SimEvent): void {
    if (event === 'highHeartRate') return; // a phone measures no heart rate
    this.get({ ...this.fixParams(sim), alarm: event });
  }
}
