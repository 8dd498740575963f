// The rule that picks the connection carrying a device's commands, on a clock of its own: hellos
// and single frames earn nothing, a live connection keeps the device while it talks, a newer one
// takes over when the old one is closed, silent past its rhythm, or (GT06) continued by the newer
// one's serials, and a connection the device contradicts by talking elsewhere is never believed.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { DeviceSessions, follows, type DeviceSession, type FrameFacts } from '../src/pipeline/sessions.js';
import { Metrics } from '../src/pipeline/metrics.js';

class Conn implements DeviceSession {
  deviceId = 7;
  open = true;
  promotions = 0;
  constructor(
    readonly remote: string,
    readonly protocol: 'watch' | 'gt06' = 'watch',
  ) {}
  sendCommand(): string {
    return '';
  }
  promoted(): void {
    this.promotions++;
  }
}

const DEVICE = 7;
const QUIET = 30_000;

function setup() {
  let now = 1_000_000;
  const metrics = new Metrics();
  const sessions = new DeviceSessions({ quietMs: QUIET, log: pino({ level: 'silent' }), metrics, now: () => now });
  const send = (c: Conn, facts: FrameFacts) => sessions.frame(c, DEVICE, '865000000000001', facts, sessions.arrival());
  const hello: FrameFacts = { data: false };
  const data: FrameFacts = { data: true };
  return {
    sessions,
    metrics,
    send,
    hello,
    data,
    /** A watch that connects and talks: LK, then data. */
    talk(c: Conn) {
      send(c, hello);
      send(c, data);
    },
    advance(ms: number) {
      now += ms;
    },
  };
}

describe('device sessions', () => {
  it('gives nothing for a hello, a single frame, or hellos only', () => {
    const t = setup();
    const lk = new Conn('a');
    t.send(lk, t.hello);
    expect(t.sessions.get(DEVICE)).toBeUndefined();
    t.send(lk, t.hello);
    expect(t.sessions.get(DEVICE)).toBeUndefined();
    const single = new Conn('b');
    t.send(single, t.data);
    expect(t.sessions.get(DEVICE)).toBeUndefined();
    // Data after the first frame does.
    t.send(lk, t.data);
    expect(t.sessions.get(DEVICE)).toBe(lk);
    expect(lk.promotions).toBe(1);
  });

  it('keeps the commands on a live connection: a newer one never takes them while it talks', () => {
    const t = setup();
    const device = new Conn('device');
    t.talk(device);
    const intruder = new Conn('intruder');
    t.send(intruder, t.hello);
    expect(t.metrics.secondConnections).toBe(1);
    expect(t.sessions.get(DEVICE)).toBe(device);
    // The intruder sends data too; the device keeps talking: the intruder is belied.
    t.send(intruder, t.data);
    t.advance(5_000);
    t.send(device, t.data);
    expect(t.metrics.sessionsBelied).toBe(1);
    // Even once the device falls silent, the belied connection never gets its commands.
    t.advance(10 * QUIET);
    t.send(intruder, t.data);
    expect(t.sessions.get(DEVICE)).toBe(device);
    // And when the device's connection closes, the commands wait for the device's next one.
    device.open = false;
    t.sessions.leave(device, DEVICE);
    expect(t.sessions.get(DEVICE)).toBeUndefined();
    const back = new Conn('device again');
    t.talk(back);
    expect(t.sessions.get(DEVICE)).toBe(back);
  });

  it('moves the commands to a reconnected device once the old connection is silent past its rhythm', () => {
    const t = setup();
    const old = new Conn('old');
    t.talk(old);
    // The device reports every 60 s on its connection.
    for (let i = 0; i < 3; i++) {
      t.advance(60_000);
      t.send(old, t.data);
    }
    // A network change: a new connection talks, the old one is left half-open.
    t.advance(10_000);
    const fresh = new Conn('new');
    t.talk(fresh);
    expect(t.sessions.get(DEVICE)).toBe(old);
    // Silent for its longest silence (60 s) plus the quiet margin: the new connection has it.
    t.advance(60_000 + QUIET - 10_000 - 1);
    expect(t.sessions.get(DEVICE)).toBe(old);
    t.advance(2);
    expect(t.sessions.get(DEVICE)).toBe(fresh);
    expect(fresh.promotions).toBe(1);
  });

  it('moves the commands at once when the old connection closes', () => {
    const t = setup();
    const old = new Conn('old');
    t.talk(old);
    const fresh = new Conn('new');
    t.talk(fresh);
    expect(t.sessions.get(DEVICE)).toBe(old);
    old.open = false;
    t.sessions.leave(old, DEVICE);
    expect(t.sessions.get(DEVICE)).toBe(fresh);
  });

  it('gives the commands back when the device speaks again on the connection that lost them', () => {
    const t = setup();
    const device = new Conn('device');
    t.talk(device);
    t.advance(QUIET + 1);
    const intruder = new Conn('intruder');
    t.talk(intruder);
    // The device was silent past the quiet margin: the newer connection takes the commands ...
    expect(t.sessions.get(DEVICE)).toBe(intruder);
    // ... until the device speaks on its own: it gets them back, and the intruder is belied.
    t.send(device, t.data);
    expect(t.sessions.get(DEVICE)).toBe(device);
    expect(device.promotions).toBe(2);
    t.advance(10 * QUIET);
    t.send(intruder, t.data);
    expect(t.sessions.get(DEVICE)).toBe(device);
  });

  it('GT06: qualifies by serials that follow, and hands over at once to a connection continuing them', () => {
    const t = setup();
    const old = new Conn('old', 'gt06');
    t.send(old, { data: false, sequence: 1 });
    // A status packet whose serial does not follow the login's earns nothing; the next one does.
    t.send(old, { data: true, sequence: 900 });
    expect(t.sessions.get(DEVICE)).toBeUndefined();
    t.send(old, { data: true, sequence: 901 });
    expect(t.sessions.get(DEVICE)).toBe(old);
    t.send(old, { data: true, sequence: 902 });
    // A stranger guessing: a login with a serial of its own, then one that follows it.
    const stranger = new Conn('stranger', 'gt06');
    t.send(stranger, { data: false, sequence: 1 });
    t.send(stranger, { data: true, sequence: 2 });
    expect(t.sessions.get(DEVICE)).toBe(old);
    // The tracker reconnects: its serials go on from 902 (some frames lost on the way).
    const fresh = new Conn('new', 'gt06');
    t.send(fresh, { data: false, sequence: 910 });
    t.send(fresh, { data: true, sequence: 911 });
    expect(t.sessions.get(DEVICE)).toBe(fresh);
  });

  it('judges frames in the order they arrived, not the order they were stored', () => {
    const t = setup();
    const c = new Conn('c');
    const lk = t.sessions.arrival();
    const ud = t.sessions.arrival();
    // The data frame's batch committed first.
    t.sessions.frame(c, DEVICE, '865000000000001', t.data, ud);
    expect(t.sessions.get(DEVICE)).toBeUndefined();
    t.sessions.frame(c, DEVICE, '865000000000001', t.hello, lk);
    expect(t.sessions.get(DEVICE)).toBe(c);
  });

  it('counts serials modulo 65536 within a window', () => {
    expect(follows(1, 2)).toBe(true);
    expect(follows(65535, 0)).toBe(true);
    expect(follows(65500, 100)).toBe(true);
    expect(follows(5, 5)).toBe(false);
    expect(follows(5, 4)).toBe(false);
    expect(follows(5, 5 + 257)).toBe(false);
  });
});
