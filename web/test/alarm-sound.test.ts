// Which sound an alarm pop-up makes (alarmSound.ts), and the player's plays with a counting audio
// element: keep ringing loops once until closed, a few sounds plays FEW_SOUNDS times, silent never.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ALARM_CODES, alarmTypeByCode } from '@wt/contract';
import { AlarmSoundPlayer, FEW_SOUNDS, alarmSoundOf } from '../src/realtime/alarmSound';

class FakeAudio {
  static made: FakeAudio[] = [];
  loop = false;
  currentTime = 0;
  plays: boolean[] = [];
  pauses = 0;
  private ended: (() => void)[] = [];
  constructor(readonly src: string) {
    FakeAudio.made.push(this);
  }
  addEventListener(_: 'ended', fn: () => void) {
    this.ended.push(fn);
  }
  play() {
    this.plays.push(this.loop);
    if (!this.loop) queueMicrotask(() => this.ended.forEach((f) => f()));
    return Promise.resolve();
  }
  pause() {
    this.pauses++;
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeAudio.made = [];
});

describe('alarm sound', () => {
  it('follows the type ring type, the setting "ring" making any type keep ringing', () => {
    const ring = (code: number) => alarmTypeByCode(code)!.ring;
    expect(alarmSoundOf(ring(ALARM_CODES.offline), undefined)).toBe('none');
    expect(alarmSoundOf(ring(ALARM_CODES.lowBattery), undefined)).toBe('few');
    expect(alarmSoundOf(ring(ALARM_CODES.sos), undefined)).toBe('loop');
    expect(alarmSoundOf(ring(ALARM_CODES.offline), { RingType: 3 })).toBe('loop');
    expect(alarmSoundOf(ring(ALARM_CODES.offline), { RingType: 1 })).toBe('none');
    expect(alarmSoundOf(ring(ALARM_CODES.lowBattery), { RingType: 2 })).toBe('few');
  });

  it('plays a few sounds a few times, loops once for those that keep ringing, and stops with the last of them', async () => {
    vi.stubGlobal('Audio', FakeAudio);
    const looping: boolean[] = [];
    const p = new AlarmSoundPlayer('/sounds/alarm.wav', (on) => looping.push(on));
    p.start('silent', 'none');
    p.start('few', 'few');
    await vi.waitFor(() => expect(FakeAudio.made[0]!.plays).toHaveLength(FEW_SOUNDS));
    await new Promise((r) => setTimeout(r, 10));
    const a = FakeAudio.made[0]!;
    expect(a.plays).toEqual(Array(FEW_SOUNDS).fill(false));
    p.start('sos', 'loop');
    p.start('fall', 'loop');
    expect(a.plays.slice(FEW_SOUNDS)).toEqual([true]);
    p.stop('sos');
    expect(a.pauses).toBe(0);
    p.stop('fall');
    expect(a.pauses).toBe(1);
    expect(looping.at(-1)).toBe(false);
    p.stop('few');
    expect(a.plays).toHaveLength(FEW_SOUNDS + 1);
  });
});
