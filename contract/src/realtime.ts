// Messages of the realtime socket (/api/realtime), shared by the hub and the console. The console
// registers with its browser fingerprint (SPEC §3) and its access token; the hub then sends merged
// batches of device changes, alarms as they are raised, and the "refresh data" notice (type 56).

/** Registration the console sends first (SPEC §3 "Realtime registration"), plus its access token. */
export interface RealtimeRegistration {
  Token: string;
  Source: 'Client';
  Detail: { UserID: number; Type: 'Alarm' };
  State: 'UP';
  /** Access token; may instead be given as the `token` query parameter. */
  Authorization?: string;
}

/** Latest known position and status of one device, as merged in a batch. */
export interface LiveDevice {
  /** Device id. */
  i: number;
  /** Latitude and longitude (WGS-84), absent when the change carried none. */
  la?: number;
  lo?: number;
  /** Speed km/h and course degrees. */
  sp?: number;
  co?: number;
  /** Fix time, epoch ms. */
  t?: number;
  /** Online flag, when the change said it. */
  on?: boolean;
  b?: number;
  s?: number;
  st?: number;
  /** Connection mode. */
  m?: 'long' | 'short';
  /** Last communication, epoch ms. */
  ls: number;
  /**
   * Indoor position, when the fix was computed indoors: scene, floor, plan metres (x right, y down),
   * accuracy metres and method. Absent: the change carried no indoor fix; null: the device left.
   */
  in?: IndoorLive | null;
}

export interface IndoorLive {
  sc: number;
  f: number;
  x: number;
  y: number;
  a?: number;
  mt: 'nearest' | 'trilateration' | 'uwb' | 'aoa';
}

/** Alarm push message (SPEC §3). */
export interface AlarmPush {
  NotificationType: number;
  /** The device's IMEI. */
  DeviceID: string;
  Nickname: string;
  /** The alarm's content in the platform's default language, for clients without the catalogue. */
  Message: string;
  /** The content as a key of the message catalogue and its parameters: consoles render it in their language. */
  MessageKey?: string;
  MessageParams?: Record<string, unknown>;
  /** When it was raised (last), an ISO instant: consoles show it in their account's zone. */
  Created: string;
  /** The alarm record's id: the pop-up acknowledges or assigns that record. */
  AlarmId?: number;
}

export const REFRESH_NOTIFICATION_TYPE = 56;
export const SOS_NOTIFICATION_TYPE = 5;

export type RealtimeMessage =
  | { type: 'registered'; userId: number }
  | { type: 'devices'; devices: LiveDevice[] }
  | { type: 'alarm'; alarm: AlarmPush; deviceId: number }
  | { type: 'refresh'; NotificationType: 56 }
  /** Alarms of a device the platform cleared (the condition ended): their pop-ups close. */
  | { type: 'alarmCleared'; deviceId: number; alarms: { id: number; type: number }[] }
  | { type: 'commands'; commands: CommandLive[] }
  | { type: 'error'; Message: string };

/** A command's new state (queued, sent, answered, failed), merged per command in a batch like the devices. */
export interface CommandLive {
  /** Command id. */
  c: number;
  /** Device id. */
  i: number;
  s: 'queued' | 'sent' | 'answered' | 'failed';
  /** The device's reply, when answered. */
  r?: string | null;
  /** When, epoch ms. */
  t: number;
}
