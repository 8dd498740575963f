// NB-IoT / LoRa devices publishing JSON to `devices/<imei>/up` with QoS 1 (the PUBACK is the
// acknowledgement). One client carries all devices of the process, as a network server's
// integration does; commands arrive on `devices/<imei>/down`.
import mqtt, { type MqttClient } from 'mqtt';
import type { SimEvent } from '../model.js';
import { SimDevice, type Engine } from '../device.js';

export class MqttHub {
  readonly client: MqttClient;
  readonly devices = new Map<string, MqttDevice>();

  constructor(url: string, engine: Engine) {
    this.client = mqtt.connect(url, {
      clientId: `wt-sim-${process.pid}-${Math.floor(Math.random() * 1e9).toString(36)}`,
      clean: true,
      reconnectPeriod: 2000,
      connectTimeout: 10_000,
    });
    this.client.on('connect', () => {
      engine.counters.connects++;
      this.client.subscribe('devices/+/down', { qos: 1 });
    });
    this.client.on('error', () => engine.counters.errors++);
    this.client.on('close', () => {
      for (const d of this.devices.values()) d.hubDown();
    });
    this.client.on('message', (topic, payload) => {
      const imei = topic.split('/')[1];
      this.devices.get(imei)?.onCommand(payload.toString('utf8'));
    });
  }

  get up(): boolean {
    return this.client.connected;
  }

  close(): Promise<void> {
    // Without a broker there is nothing in flight worth waiting for.
    return new Promise((resolve) => this.client.end(!this.client.connected, {}, () => resolve()));
  }
}

export class MqttDevice extends SimDevice {
  private seq = 0;
  hub: MqttHub | undefined;

  protected override get hasKeepalive(): boolean {
    return false;
  }

  protected open(): void {
    if (this.hub?.up) {
      this.linkUp();
      this.loggedIn();
    } else {
      this.linkDown(2000);
    }
  }

  protected abort(): void {}

  hubDown(): void {
    if (this.connected || this.online) this.linkDown(2000);
  }

  close(): Promise<void> {
    this.connected = false;
    this.online = false;
    return Promise.resolve();
  }

  private publish(body: Record<string, unknown>): void {
    const hub = this.hub;
    if (!hub) return;
    const payload = JSON.stringify({ imei: this.imei, ...body });
    const key = ++this.seq;
    hub.client.publish(`devices/${this.imei}/up`, payload, { qos: 1 }, (err) => {
      if (err) this.engine.counters.errors++;
      else this.acked(key);
    });
    this.sent(payload.length, key);
  }

  private reading(sim: number, alarm?: string): Record<string, unknown> {
    const m = this.model;
    const f = m.fix();
    const h = m.health.snapshot();
    return {
      time: new Date(sim).toISOString(),
      lat: Number(f.lat.toFixed(6)),
      lon: Number(f.lon.toFixed(6)),
      valid: f.valid,
      speed: Number(f.speed.toFixed(1)),
      course: f.course,
      battery: h.battery,
      heartRate: h.heartRate,
      systolic: h.systolic,
      diastolic: h.diastolic,
      bodyTemp: h.bodyTemp,
      spo2: h.spo2,
      steps: h.steps,
      sleep: h.sleep,
      ...(alarm ? { alarm } : {}),
    };
  }

  protected sendReport(sim: number): void {
    this.publish(this.reading(sim));
  }

  protected sendKeepalive(): void {}
  protected sendHealth(): void {}

  protected sendAlarm(sim: number, event: SimEvent): void {
    this.publish(this.reading(sim, event === 'highHeartRate' ? undefined : event));
  }

  /** `{"code":"UPLOAD","params":{"seconds":30}}` or the watch-style text `UPLOAD,30`. */
  onCommand(text: string): void {
    let code: string;
    let params: Record<string, unknown> = {};
    try {
      const j = JSON.parse(text) as { code?: string; params?: Record<string, unknown> };
      code = String(j.code ?? '');
      params = j.params ?? {};
    } catch {
      const [w, ...args] = text.split(',');
      code = w;
      if (args.length) params = { seconds: Number(args[0]) };
    }
    code = code.toUpperCase();
    if (!code) return;
    this.commandReceived(text);
    if (code === 'UPLOAD') {
      const s = params.seconds !== undefined ? Number(params.seconds) : Number(params.interval) * 60;
      this.setInterval(s);
    } else if (code === 'CR' || code === 'LOCATE' || code === 'FIND' || code.startsWith('HEART_RATE')) {
      this.reportNow();
    }
    this.publish({
      time: new Date(this.engine.clock.sim()).toISOString(),
      commandResult: { keyword: code, text: 'OK' },
    });
    this.engine.counters.commandReplies++;
  }
}
