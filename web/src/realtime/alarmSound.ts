// The alarm sound, as each alarm asks for it. An alarm type rings in one of three ways (its ring
// type): keep ringing (the sound loops while its pop-up is open), a few sounds (the sound plays
// FEW_SOUNDS times, then stops, the pop-up staying as long as it stays) or silent. A user's alarm
// setting "ring" (RingType 3) makes that type's pop-ups keep ringing whatever the type says; its
// other values (1 no auto-close, 2 auto-close) only say how long the pop-up stays.
import { ALARM_RINGS, SETTING_RINGS } from '@wt/contract';

export type AlarmSound = 'loop' | 'few' | 'none';

/** How many times "a few sounds" plays the sound. */
export const FEW_SOUNDS = 3;

export function alarmSoundOf(typeRing: number | undefined, setting: { RingType: number } | undefined): AlarmSound {
  if (setting?.RingType === SETTING_RINGS.ring) return 'loop';
  if (typeRing === ALARM_RINGS.silent) return 'none';
  if (typeRing === ALARM_RINGS.few) return 'few';
  // Keep ringing, and a type the console does not know (yet): as the alarm sound always did.
  return 'loop';
}

/**
 * One audio element for every pop-up: it loops while a pop-up that keeps ringing is open, plays a
 * few times for one that asks for a few sounds, and stops when the last ringing pop-up closes.
 */
export class AlarmSoundPlayer {
  private audio: HTMLAudioElement | null = null;
  private readonly looping = new Set<string>();
  private fewLeft = 0;
  private loopOn = false;

  constructor(
    private readonly url: string,
    private readonly onLoopingChange: (on: boolean) => void = () => undefined,
  ) {}

  /** A pop-up `key` opened asking for `sound`. */
  start(key: string, sound: AlarmSound): void {
    if (sound === 'loop') {
      this.looping.add(key);
      this.sync();
    } else if (sound === 'few') {
      // Already looping: the loop covers it.
      if (this.looping.size) return;
      const playing = this.fewLeft > 0;
      this.fewLeft = FEW_SOUNDS;
      if (!playing) this.playOnce();
    }
  }

  /** A pop-up closed. */
  stop(key: string): void {
    if (this.looping.delete(key)) this.sync();
  }

  /** Everything stops (the console is leaving). */
  dispose(): void {
    this.looping.clear();
    this.fewLeft = 0;
    this.loopOn = false;
    this.audio?.pause();
    this.onLoopingChange(false);
  }

  private element(): HTMLAudioElement {
    if (!this.audio) {
      this.audio = new Audio(this.url);
      this.audio.addEventListener('ended', () => {
        if (!this.looping.size && this.fewLeft > 0) this.playOnce();
      });
    }
    return this.audio;
  }

  private sync(): void {
    const a = this.element();
    if (this.looping.size) {
      this.fewLeft = 0;
      if (!this.loopOn) {
        this.loopOn = true;
        a.loop = true;
        void a.play().catch(() => undefined);
      }
    } else if (this.loopOn) {
      this.loopOn = false;
      a.loop = false;
      a.pause();
    }
    this.onLoopingChange(this.looping.size > 0);
  }

  private playOnce(): void {
    const a = this.element();
    a.loop = false;
    a.currentTime = 0;
    this.fewLeft--;
    // A browser that refuses to play (no user gesture yet) gets no more tries of this alarm.
    void a.play().catch(() => (this.fewLeft = 0));
  }
}
