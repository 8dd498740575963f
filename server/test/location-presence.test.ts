// Presence in locations, pure: a tag standing in a doorway does not flap, entering and leaving are
// confirmed by N samples or a dwell time and dated by the first sample on the new side, a
// beacon-defined location is entered by its own beacons' hearings and left on their silence, and
// identities match by MAC and by UUID+major+minor however they are written.
import { describe, expect, it } from 'vitest';
import { anchorKey } from '../src/indoor/index.js';
import { PresenceTracker, closeRing, type Sample, type TrackedLocation } from '../src/rules/location.js';

const ROOM: TrackedLocation = { id: 1, kind: 'zone', floorId: 7, ring: closeRing([[0, 0], [4, 0], [4, 3], [0, 3]]) };
const cfg = { enter: { fixes: 2, ms: 10_000 }, leave: { fixes: 3, ms: 15_000 }, beaconTimeoutMs: 30_000 };
const at = (time: number, x: number, floorId = 7): Sample => ({ kind: 'position', time, floorId, x, y: 1.5 });
const crossings = (t: PresenceTracker, samples: Sample[], locs = [ROOM]) =>
  samples.flatMap((s) => t.observe(1, locs, s)).flatMap((c) => (c.crossing ? [c.crossing] : []));

describe('presence in a zone', () => {
  it('does not flap for a tag standing in the doorway (every other fix inside)', () => {
    const t = new PresenceTracker(cfg);
    // x = 3.9 inside, 4.1 outside the wall at x = 4, a fix a second.
    const doorway = Array.from({ length: 60 }, (_, i) => at(1000 * (i + 1), i % 2 ? 4.1 : 3.9));
    expect(crossings(t, doorway)).toEqual([]);
  });

  it('enters after two fixes inside, dated by the first; leaves after three outside', () => {
    const t = new PresenceTracker(cfg);
    expect(crossings(t, [at(1000, 6), at(2000, 2)])).toEqual([]);
    expect(crossings(t, [at(3000, 2)])).toEqual([{ inside: true, time: 2000 }]);
    expect(crossings(t, [at(4000, 2), at(5000, 6), at(6000, 6)])).toEqual([]);
    expect(crossings(t, [at(7000, 6)])).toEqual([{ inside: false, time: 5000 }]);
    expect(t.states.size).toBe(0);
  });

  it('enters after the dwell time even with a single sparse fix inside first', () => {
    const t = new PresenceTracker({ ...cfg, enter: { fixes: 5, ms: 10_000 } });
    expect(crossings(t, [at(0, 2), at(4000, 2)])).toEqual([]);
    expect(crossings(t, [at(10_000, 2)])).toEqual([{ inside: true, time: 0 }]);
  });

  it('counts a position on another floor, or outdoors, as outside', () => {
    const t = new PresenceTracker(cfg);
    crossings(t, [at(1000, 2), at(2000, 2)]);
    const out = crossings(t, [at(3000, 2, 8), { kind: 'position', time: 4000, floorId: null, x: null, y: null }, at(5000, 2, 8)]);
    expect(out).toEqual([{ inside: false, time: 3000 }]);
  });

  it('ignores a fix older than the last one', () => {
    const t = new PresenceTracker(cfg);
    expect(crossings(t, [at(5000, 2), at(4000, 2), at(3000, 2)])).toEqual([]);
  });
});

describe('presence at beacons', () => {
  const mac = anchorKey({ mac: 'ac-23-3f-a0-00-01' })!;
  const ibeacon = anchorKey({ uuid: 'FDA50693A4E24FB1AFCFC6EB07647825', major: '10', minor: 2 })!;
  const DESK: TrackedLocation = { id: 2, kind: 'beacons', keys: new Set([mac, ibeacon]) };
  const heard = (time: number, ...keys: string[]): Sample => ({ kind: 'heard', time, keys });

  it('matches identities by MAC and by UUID+major+minor in any spelling', () => {
    expect(anchorKey({ mac: 'AC233FA00001' })).toBe(mac);
    expect(anchorKey({ uuid: 'fda50693-a4e2-4fb1-afcf-c6eb07647825', major: 10, minor: '2' })).toBe(ibeacon);
    expect(anchorKey({ uuid: 'fda50693-a4e2-4fb1-afcf-c6eb07647825', major: 10, minor: 3 })).not.toBe(ibeacon);
  });

  it('enters on its own beacons, ignores others, and leaves after the silence', () => {
    const t = new PresenceTracker(cfg);
    expect(crossings(t, [heard(1000, 'AC:23:3F:FF:FF:FF')], [DESK])).toEqual([]);
    expect(t.states.size).toBe(0);
    expect(crossings(t, [heard(2000, mac), heard(3000, 'AC:23:3F:FF:FF:FF', ibeacon)], [DESK])).toEqual([{ inside: true, time: 2000 }]);
    // Heard elsewhere: says nothing; the timeout runs from the last hearing by its own beacons.
    expect(crossings(t, [heard(20_000, 'AC:23:3F:FF:FF:FF')], [DESK])).toEqual([]);
    expect(t.expire(32_000, new Set([2]))).toEqual([]);
    expect(t.expire(33_000, new Set([2]))).toEqual([{ locationId: 2, deviceId: 1, state: null, crossing: { inside: false, time: 3000 } }]);
    expect(t.states.size).toBe(0);
  });

  it('a single hearing that never confirms is forgotten without a crossing', () => {
    const t = new PresenceTracker(cfg);
    crossings(t, [heard(1000, mac)], [DESK]);
    expect(t.expire(40_000, new Set([2]))).toEqual([{ locationId: 2, deviceId: 1, state: null, crossing: null }]);
  });
});
