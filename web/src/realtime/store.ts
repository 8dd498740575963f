// Realtime state the shell shows: connection status, the last alarms (SPEC §9: 10 kept), how
// many alarm notifications are open and whether the alarm sound loops.
import { create } from 'zustand';
import { LIMITS, type AlarmPush } from '@wt/contract';
import type { ConnectionStatus } from './connection';

export interface ReceivedAlarm extends AlarmPush {
  key: string;
  deviceId: number;
  receivedAt: number;
}

interface RealtimeState {
  status: ConnectionStatus;
  alarms: ReceivedAlarm[];
  /** Alarms not yet seen in the navbar list. */
  unseen: number;
  openNotifications: number;
  soundOn: boolean;
  /** Devices with an SOS raised while this console is open (blink on the map). */
  sosDevices: Set<number>;
  setStatus: (s: ConnectionStatus) => void;
  pushAlarm: (a: ReceivedAlarm) => void;
  markSeen: () => void;
  notificationOpened: () => void;
  notificationClosed: () => void;
  setSoundOn: (on: boolean) => void;
  clearSos: (deviceId: number) => void;
}

export const useRealtime = create<RealtimeState>()((set) => ({
  status: 'idle',
  alarms: [],
  unseen: 0,
  openNotifications: 0,
  soundOn: false,
  sosDevices: new Set(),
  setStatus: (status) => set({ status }),
  pushAlarm: (a) =>
    set((s) => {
      const sosDevices = a.NotificationType === 5 ? new Set(s.sosDevices).add(a.deviceId) : s.sosDevices;
      return { alarms: [a, ...s.alarms].slice(0, LIMITS.alarmListKept), unseen: Math.min(s.unseen + 1, LIMITS.alarmListKept), sosDevices };
    }),
  markSeen: () => set({ unseen: 0 }),
  notificationOpened: () => set((s) => ({ openNotifications: s.openNotifications + 1 })),
  notificationClosed: () => set((s) => ({ openNotifications: Math.max(0, s.openNotifications - 1) })),
  // Whether the sound loops: while a pop-up that keeps ringing is open (alarmSound.ts; SPEC §4).
  setSoundOn: (soundOn) => set({ soundOn }),
  clearSos: (deviceId) =>
    set((s) => {
      const next = new Set(s.sosDevices);
      next.delete(deviceId);
      return { sosDevices: next };
    }),
}));
