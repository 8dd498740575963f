// Domain events the pipeline publishes on the bus after each commit. Every event names the device
// and its owner, with the owner's account path, so a subscriber (realtime hub, rules, partner push)
// can keep to an account subtree with a prefix test and no query.
import type { AlarmKind, BeaconScan, CellTower, DeviceStatus, HealthReading, IndoorFix, ProtocolName, WifiAccessPoint } from '@wt/protocols';

export const TOPICS = {
  position: 'device.position',
  health: 'device.health',
  alarm: 'device.alarm',
  /** Online/offline changes, and status values (battery, signal) reported without a position. */
  status: 'device.status',
  beacon: 'device.beacon',
  /** A gateway heard an identity that is no device (not stored). */
  beaconUnknown: 'device.beacon.unknown',
  /** A command changed status (queued, sent, answered, failed). */
  command: 'device.command',
  /** Published by whoever changes a device's identity or owner, so caches drop it. */
  changed: 'device.changed',
  /** A command for a device whose connection may be held by another gateway process. */
  dispatch: 'gateway.command.dispatch',
} as const;

export interface DeviceRefEvent {
  deviceId: number;
  imei: string;
  name: string;
  accountId: number;
  /** Materialized path of the owner ('/1/5/'): in the subtree of `p` when it starts with `p`. */
  accountPath: string;
  protocol: string;
  /** Device time of the message (receive time when the device sends none). */
  time: string;
  receivedAt: string;
}

export interface PositionEvent extends DeviceRefEvent {
  lat: number | null;
  lon: number | null;
  valid: boolean;
  speed?: number;
  course?: number;
  altitude?: number;
  accuracy?: number;
  satellites?: number;
  cells?: CellTower[];
  wifi?: WifiAccessPoint[];
  status?: DeviceStatus;
  buffered?: boolean;
  /** A fix the positioning engine computed indoors. */
  indoor?: IndoorFix;
  /** 'beacon': placed at a registered beacon it heard. */
  method?: 'beacon';
}

export interface HealthEvent extends DeviceRefEvent {
  health: HealthReading;
}

export interface AlarmEvent extends DeviceRefEvent {
  alarm: AlarmKind;
  lat?: number;
  lon?: number;
  valid?: boolean;
  /** Row id in device_events. */
  eventId: number;
}

export interface StatusEvent extends DeviceRefEvent {
  online: boolean;
  connectionMode?: 'long' | 'short';
  status?: DeviceStatus;
}

export interface BeaconEvent extends DeviceRefEvent {
  beacon: BeaconScan;
}

export interface UnknownBeaconEvent {
  identity: string;
  beacon: BeaconScan;
  time: string;
  /** The reporting integration's subtree, when it has one. */
  scopePath?: string;
}

export interface CommandEvent extends Omit<DeviceRefEvent, 'time' | 'receivedAt'> {
  commandId: number;
  code: string;
  status: 'queued' | 'sent' | 'answered' | 'failed';
  reply?: string | null;
  at: string;
}

export interface DeviceChangedEvent {
  imei?: string;
  deviceId?: number;
}

export interface DispatchEvent {
  commandId: number;
  deviceId: number;
}

export type { ProtocolName };
