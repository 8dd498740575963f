// A GT06 (Concox) vehicle tracker: login 0x01, GPS+LBS 0x12 reports, 0x13 heartbeats, 0x16 alarms,
// each answered by the server with the same type and serial. Text commands (0x80) get a 0x15
// reply carrying the server flag back, and take effect (TIMER, WHERE, RESET ...).
import { Gt06Framer, gt06Device, parseGt06Frame, type AlarmKind, type Fix } from '@wt/protocols';
import { cellsAt } from '../lbs.js';
import type { SimEvent } from '../model.js';
import { TcpDevice } from './tcp.js';

const ALARM_OF: Partial<Record<SimEvent, AlarmKind>> = {
  sos: 'sos',
  fall: 'fall',
  removal: 'tamper',
  lowBattery: 'lowBattery',
};

function hemi(v: number, pos: string, neg: string): string {
  return `${v < 0 ? neg : pos}${Math.abs(v).toFixed(6)}`;
}

export class Gt06Device extends TcpDevice {
  private serial = 0;

  protected get port(): number {
    return this.engine.options.ports.gt06;
  }

  protected newFramer(): Gt06Framer {
    return new Gt06Framer();
  }

  private nextSerial(): number {
    this.serial = (this.serial + 1) & 0xffff;
    return this.serial;
  }

  private key(type: number, serial: number): number {
    return type * 0x10000 + serial;
  }

  protected onConnect(): void {
    const serial = this.nextSerial();
    this.write(gt06Device.login(this.imei, serial), this.key(0x01, serial));
  }

  private fix(sim: number): Fix {
    const f = this.model.fix();
    return {
      time: new Date(sim),
      valid: f.valid,
      lat: f.lat,
      lon: f.lon,
      speed: f.speed,
      course: f.course,
      satellites: f.satellites,
    };
  }

  private cell() {
    const m = this.model;
    return cellsAt(m.city, m.mover.u, m.mover.v, m.rng, 1)[0];
  }

  protected sendReport(sim: number): void {
    const serial = this.nextSerial();
    this.write(gt06Device.location(this.fix(sim), serial, this.cell()), this.key(0x12, serial));
  }

  protected sendKeepalive(): void {
    const serial = this.nextSerial();
    const moving = this.model.mover.moving;
    // Vehicle power: ignition on while driving, the tracker charges from the car then.
    this.write(
      gt06Device.heartbeat(serial, { ignition: moving, charging: moving, batteryLevel: 6, gsm: 4 }),
      this.key(0x13, serial),
    );
  }

  protected sendHealth(): void {
    // Trackers measure nothing about people.
  }

  protected sendAlarm(sim: number, event: SimEvent): void {
    const kind = ALARM_OF[event];
    if (!kind) return;
    const serial = this.nextSerial();
    this.write(gt06Device.alarm(this.fix(sim), kind, serial, this.cell()), this.key(0x16, serial));
  }

  protected onFrame(frame: Buffer): void {
    const info = parseGt06Frame(frame);
    if (!info) {
      this.engine.counters.errors++;
      return;
    }
    if (info.type === 0x80) {
      this.onCommand(frame.subarray(info.contentStart, info.contentEnd));
      return;
    }
    if (this.acked(this.key(info.type, info.serial)) && info.type === 0x01 && !this.online) this.loggedIn();
  }

  /** 0x80 content: length (flag + text), server flag (4), text, then language (2). */
  private onCommand(content: Buffer): void {
    if (content.length < 5) return;
    const n = content[0];
    const flag = content.readUInt32BE(1);
    const text = content
      .subarray(5, Math.min(content.length, 1 + n))
      .toString('latin1')
      .replace(/\0+$/, '');
    this.commandReceived(text);
    const body = text.replace(/#$/, '');
    const [word, ...args] = body.split(',');
    const cmd = word.toUpperCase();
    let reply: string;
    let after: (() => void) | undefined;
    switch (cmd) {
      case 'TIMER': {
        const s = Number(args[0]);
        reply = Number.isFinite(s) && s > 0 ? `TIMER:${s} OK!` : 'TIMER:ERROR!';
        after = () => this.setInterval(s);
        break;
      }
      case 'WHERE': {
        const sim = this.engine.clock.sim();
        this.model.advance(sim);
        const f = this.model.fix();
        const t = new Date(sim).toISOString().slice(0, 19).replace('T', ' ');
        reply = `Current position!Lat:${hemi(f.lat, 'N', 'S')},Lon:${hemi(f.lon, 'E', 'W')},Course:${f.course.toFixed(2)},Speed:${f.speed.toFixed(2)},DateTime:${t}`;
        after = () => this.reportNow();
        break;
      }
      case 'DYD':
        reply = 'Cut off the fuel supply: Success!';
        break;
      case 'HFYD':
        reply = 'Restore fuel supply: Success!';
        break;
      case 'RESET':
        reply = 'RESET OK!';
        after = () => this.reboot(3000);
        break;
      case 'SOS':
      case 'CENTER':
        args.slice(1).forEach((num, i) => (this.phoneBook[`${cmd.toLowerCase()}${i + 1}`] = num));
        reply = `${cmd} OK!`;
        break;
      default:
        reply = `${body} OK!`;
    }
    const serial = this.nextSerial();
    this.write(gt06Device.commandReply(reply, serial, flag), this.key(0x15, serial));
    this.engine.counters.commandReplies++;
    after?.();
  }
}
