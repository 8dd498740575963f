// A 4G smart watch on the `[3G*ID*LEN*CONTENT]` text protocol: LK to log in and keep alive, UD for
// positions (cell towers and Wi-Fi when GPS is not fixed), AL for alarms, heart/bphrt/TEMP/oxygen
// for measurements; it echoes the keyword of every command it accepts, as the firmware does.
import {
  WATCH_COMMAND_REPLIES,
  WatchFramer,
  buildWatchFrame,
  parseWatchFrame,
  watchContent,
  type AlarmKind,
  type WatchFrame,
  type WatchLocationInput,
} from '@wt/protocols';
import { cellsAt, wifiAt } from '../lbs.js';
import type { SimEvent } from '../model.js';
import { TcpDevice } from './tcp.js';

/** Frames the server answers; any other incoming keyword is a command. */
const ANSWERED = new Set(['LK', 'AL', 'TKQ', 'TKQ2', 'INIT']);
/** Commands the firmware acts on beyond the echo, plus the ones it merely acknowledges. */
const ACCEPTED = new Set([
  ...WATCH_COMMAND_REPLIES,
  'FALLHEIGHT',
  'WORKTIME',
  'VIBRATION',
  'HRTSTART',
  'BPHRTSTART',
  'BODYTEMPSTART',
  'OXSTART',
]);

const ALARM_OF: Partial<Record<SimEvent, AlarmKind>> = {
  sos: 'sos',
  fall: 'fall',
  removal: 'removal',
  lowBattery: 'lowBattery',
};

export const WATCH_FIRMWARE = 'WT-SIM_4G_V1.2.0';

function fromUtf16Hex(hex: string): string {
  if (!/^([0-9a-fA-F]{4})+$/.test(hex)) return hex;
  const b = Buffer.from(hex, 'hex');
  b.swap16();
  return b.toString('utf16le');
}

export class WatchDevice extends TcpDevice {
  private get wid(): string {
    return this.engine.options.watchId === 'last10' ? this.imei.slice(-10) : this.imei;
  }

  protected get port(): number {
    return this.engine.options.ports.watch;
  }
  protected override get hasHealth(): boolean {
    return true;
  }

  protected newFramer(): WatchFramer {
    return new WatchFramer({ maxBuffer: 64 * 1024 });
  }

  private send(content: string, ackKey?: string): void {
    this.write(buildWatchFrame(this.engine.options.watchVendor, this.wid, content), ackKey);
  }

  private lk(): string {
    const h = this.model.health;
    return watchContent.lk({ steps: h.steps, tumbles: 0, battery: h.batteryPercent() });
  }

  protected onConnect(): void {
    // The watch announces itself with a link keep-alive and waits for the server's LK.
    this.send(this.lk(), 'LK');
  }

  private location(sim: number, alarms: AlarmKind[] = []): WatchLocationInput {
    const m = this.model;
    const f = m.fix();
    const h = m.health;
    const r = m.rng;
    return {
      fix: {
        time: new Date(sim),
        valid: f.valid,
        lat: f.lat,
        lon: f.lon,
        speed: f.speed,
        course: f.course,
        altitude: f.altitude,
        satellites: f.satellites,
      },
      battery: h.batteryPercent(),
      signal: Math.round(r.range(60, 100)),
      steps: h.steps,
      tumbles: 0,
      alarms,
      cells: cellsAt(m.city, m.mover.u, m.mover.v, r, f.valid ? 1 : 3),
      // Without a GPS fix the watch scans Wi-Fi so the platform can still place it.
      wifi: f.valid ? undefined : wifiAt(m.mover.u, m.mover.v, r, 3),
    };
  }

  protected sendReport(sim: number): void {
    this.send(watchContent.ud(this.location(sim)));
  }

  protected sendKeepalive(): void {
    this.send(this.lk(), 'LK');
  }

  protected sendHealth(_sim: number, round: number): void {
    const h = this.model.health;
    const hr = h.heartRate();
    this.send(watchContent.heart({ heartRate: hr }));
    if (round % 4 === 1) this.send(watchContent.bphrt(h.bloodPressure(hr)));
    if (round % 4 === 2) this.send(watchContent.temp({ bodyTemp: h.bodyTemp() }));
    if (round % 4 === 3) this.send(watchContent.oxygen({ heartRate: hr, bloodOxygen: h.spo2() }));
  }

  protected sendAlarm(sim: number, event: SimEvent): void {
    if (event === 'highHeartRate') {
      // The watch measures and reports; the platform's threshold rules raise the alarm.
      const h = this.model.health;
      const hr = h.heartRate();
      this.send(watchContent.heart({ heartRate: hr }));
      this.send(watchContent.bphrt(h.bloodPressure(hr)));
      return;
    }
    const kind = ALARM_OF[event];
    if (kind) this.send(watchContent.al(this.location(sim, [kind])), 'AL');
  }

  protected onFrame(raw: Buffer): void {
    const f = parseWatchFrame(raw);
    if (!f) {
      this.engine.counters.errors++;
      return;
    }
    this.handle(f);
  }

  private handle(f: WatchFrame): void {
    const key = f.type.toUpperCase();
    if (ANSWERED.has(key)) {
      if (this.acked(key) && key === 'LK' && !this.online) this.loggedIn();
      return;
    }
    if (!ACCEPTED.has(key)) return; // unknown keywords are ignored by real firmware
    this.commandReceived(f.body ? `${f.type},${f.body}` : f.type);
    this.onCommand(f, key);
  }

  private onCommand(f: WatchFrame, key: string): void {
    const args = f.body === '' ? [] : f.body.split(',');
    const n = (i: number) => Number(args[i]);
    const echo = () => {
      this.send(key === 'VERNO' ? `${f.type},${WATCH_FIRMWARE}` : f.type);
      this.engine.counters.commandReplies++;
    };
    const measure = (what: 'heart' | 'bp' | 'temp' | 'spo2') => {
      const h = this.model.health;
      this.model.advance(this.engine.clock.sim());
      const hr = h.heartRate();
      if (what === 'heart') this.send(watchContent.heart({ heartRate: hr }));
      if (what === 'bp') this.send(watchContent.bphrt(h.bloodPressure(hr)));
      if (what === 'temp') this.send(watchContent.temp({ bodyTemp: h.bodyTemp() }));
      if (what === 'spo2') this.send(watchContent.oxygen({ heartRate: hr, bloodOxygen: h.spo2() }));
    };
    // A health trigger: 1 measures once, 0 stops, anything else sets the period (seconds).
    const healthTrigger = (what: 'heart' | 'bp' | 'temp' | 'spo2') => {
      echo();
      const s = args.length ? n(0) : 1;
      if (s === 1 || !Number.isFinite(s)) measure(what);
      else if (what === 'heart') this.setHealthInterval(s);
      else if (s > 1) measure(what);
    };
    switch (key) {
      case 'UPLOAD':
        echo();
        this.setInterval(n(0));
        return;
      case 'CR':
        echo();
        this.reportNow();
        return;
      case 'HRTSTART':
        return healthTrigger('heart');
      case 'BPHRTSTART':
        return healthTrigger('bp');
      case 'BODYTEMPSTART':
      case 'BTEMP2START':
        return healthTrigger('temp');
      case 'OXSTART':
        return healthTrigger('spo2');
      case 'MESSAGE':
        echo();
        this.messages.push(fromUtf16Hex(f.body));
        if (this.messages.length > 5) this.messages.shift();
        return;
      case 'SOS':
        echo();
        args.slice(0, 3).forEach((num, i) => (this.phoneBook[`sos${i + 1}`] = num));
        return;
      case 'SOS1':
      case 'SOS2':
      case 'SOS3':
      case 'CENTER':
      case 'SLAVE':
      case 'MONITOR':
        echo();
        this.phoneBook[key.toLowerCase()] = args[0] ?? '';
        return;
      case 'RESET':
        echo();
        this.reboot(2000);
        return;
      case 'FACTORY':
        echo();
        this.interval = this.engine.options.interval;
        this.healthInterval = this.engine.options.healthInterval;
        this.phoneBook = {};
        this.reboot(5000);
        return;
      case 'POWEROFF':
        echo();
        // Someone switches it back on after an hour (simulated), so demos do not lose devices for good.
        this.poweredOffUntil = this.engine.clock.sim() + 3_600_000;
        this.reboot(1000);
        return;
      default:
        echo();
    }
  }
}
