// Normalized device messages: what every decoder produces and the pipeline consumes. Units are
// fixed here so that no consumer converts: degrees WGS-84, km/h, degrees for course, metres for
// altitude and accuracy, percent for battery, volts for power, °C, mmHg, bpm, %.

export type ProtocolName = 'watch' | 'gt06' | 'osmand' | 'uplink';

export interface CellTower {
  mcc: number;
  mnc: number;
  lac: number;
  cid: number;
  rssi?: number;
}

export interface WifiAccessPoint {
  mac: string;
  rssi?: number;
  ssid?: string;
}

export interface Fix {
  /** Time of the fix (device clock, UTC). */
  time: Date;
  /** True when the receiver had a valid fix ('A'); false for 'V' or LBS-only. */
  valid: boolean;
  lat: number;
  lon: number;
  /** km/h */
  speed?: number;
  course?: number;
  altitude?: number;
  satellites?: number;
  accuracy?: number;
  /** A fix computed indoors by the positioning engine (lat/lon from the floor's georeference). */
  indoor?: IndoorFix;
  /** 'beacon': placed at a registered beacon it heard (no GNSS fix, no indoor solution). */
  method?: 'beacon';
}

/** Where on a floor plan: metres from the plan's top-left corner, x right, y down. */
export interface IndoorFix {
  sceneId: number;
  floorId: number;
  x: number;
  y: number;
  method: 'nearest' | 'trilateration' | 'uwb' | 'aoa';
}

export type AlarmKind =
  | 'sos'
  | 'lowBattery'
  | 'fenceIn'
  | 'fenceOut'
  | 'fall'
  | 'removal'
  | 'powerCut'
  | 'powerOff'
  | 'vibration'
  | 'overspeed'
  | 'tamper';

export interface HealthReading {
  heartRate?: number;
  systolic?: number;
  diastolic?: number;
  bodyTemp?: number;
  wristTemp?: number;
  bloodOxygen?: number;
  hrv?: number;
  steps?: number;
  /** metres */
  distance?: number;
  /** kcal */
  calories?: number;
  uv?: number;
  /** Photoplethysmography (PPG) signal level, 0-100. */
  pho?: number;
  /** Infrared (wear) sensor level, 0-100. */
  ir?: number;
  sleep?: { stage: 'awake' | 'light' | 'deep'; minutes: number }[];
}

export interface DeviceStatus {
  /** percent 0-100 */
  battery?: number;
  /** volts */
  power?: number;
  /** 0-100 (GSM signal as percent) */
  signal?: number;
  steps?: number;
  tumbles?: number;
  charging?: boolean;
  ignition?: boolean;
}

/**
 * What a device or a gateway heard. BLE: with `gatewayId`, a fixed gateway heard the device (one
 * entry, the device's own advertisement); without it, the device (a wearable) heard the beacons
 * listed. UWB: tag coordinates computed by a UWB engine in the frame of the floor of the anchor or
 * engine `gatewayId` (metres), with its quality (0-100) when given. AOA: the angles at which
 * locators saw the tag.
 */
export interface BeaconScan {
  kind: 'ble' | 'uwb' | 'aoa';
  beacons?: { mac?: string; uuid?: string; major?: number; minor?: number; rssi: number }[];
  x?: number;
  y?: number;
  z?: number;
  quality?: number;
  gatewayId?: string;
  /** AOA: azimuth (degrees from the locator's boresight, clockwise) and elevation (degrees up). */
  angles?: { locator: string; azimuth: number; elevation?: number }[];
}

/** One decoded unit of meaning. A frame may yield several (a buffered UD2 batch, a GT06 alarm with a fix). */
export interface DeviceMessage {
  /** The device identity as the protocol carries it (watch id, GT06 IMEI, OsmAnd id). */
  deviceId: string;
  protocol: ProtocolName;
  /** Server receive time is added by the gateway; this is the device's own time when known. */
  time?: Date;
  kind: 'position' | 'health' | 'alarm' | 'heartbeat' | 'beacon' | 'commandResult' | 'login';
  fix?: Fix;
  cells?: CellTower[];
  wifi?: WifiAccessPoint[];
  status?: DeviceStatus;
  health?: HealthReading;
  alarms?: AlarmKind[];
  beacon?: BeaconScan;
  /** Reply of the device to a command: the command keyword it answers, and any text. */
  /**
   * Reply of the device to a command: the keyword it answers, any text, and (GT06) the server flag
   * the command carried, which the gateway sets to the command's id so the reply matches exactly.
   */
  commandResult?: { keyword: string; text?: string; serverFlag?: number };
  /** The message type keyword as sent (UD, LK, 0x12 ...), for logs. */
  type: string;
  /** Buffered / historical data (UD2, GT06 re-upload). */
  buffered?: boolean;
  /** Extra attributes the protocol carried that have no field here (ICCID, firmware ...). */
  attributes?: Record<string, string | number | boolean>;
}

/** What a stream decoder returns for one frame. */
export interface DecodeResult {
  messages: DeviceMessage[];
  /** Bytes to send back to the device once the messages are committed (undefined: nothing). */
  reply?: Uint8Array;
  /** The identity the frame established (GT06 login), so later frames on the connection carry it. */
  deviceId?: string;
  /** The frame's own number when the protocol numbers its frames (the GT06 serial, 0-65535). */
  sequence?: number;
}

/** A command from the console, before encoding. */
export interface DeviceCommand {
  /** A code of the contract's COMMAND_CODES (UPLOAD, SOS, CENTER, RESET, POWEROFF, FIND, MESSAGE ...). */
  code: string;
  /** As validated by the contract's COMMAND_SCHEMAS (lists of periods or reminders are objects). */
  params: Record<string, unknown>;
}
