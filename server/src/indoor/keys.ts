// Anchor identities. A BLE anchor is known by its MAC, normalized to upper case with colons
// (`AC:23:3F:A0:00:01`); an iBeacon by `uuid:major:minor` with the UUID in lower case with dashes.
// Gateways, wearables and the console spell these in many ways (dashes, no separators, lower case,
// UUID without dashes); everything is brought to the one form before lookups.

export interface AnchorIdentity {
  mac?: string | null;
  uuid?: string | null;
  major?: number | string | null;
  minor?: number | string | null;
}

/** `AC:23:3F:A0:00:01` from any of `ac233fa00001`, `AC-23-3F-A0-00-01`, `ac:23:3f:a0:00:01`, `AC23.3FA0.0001`; null otherwise. */
export function normalizeMac(mac: unknown): string | null {
  if (typeof mac !== 'string' || mac.length > 17) return null;
  const hex = mac.trim().replace(/[:\-.]/g, '');
  if (!/^[0-9a-fA-F]{12}$/.test(hex)) return null;
  const u = hex.toUpperCase();
  return `${u.slice(0, 2)}:${u.slice(2, 4)}:${u.slice(4, 6)}:${u.slice(6, 8)}:${u.slice(8, 10)}:${u.slice(10, 12)}`;
}

/** `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in lower case from a UUID with or without dashes; null otherwise. */
export function normalizeUuid(uuid: unknown): string | null {
  if (typeof uuid !== 'string' || uuid.length > 36) return null;
  const hex = uuid.trim().replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function u16(v: unknown): number | null {
  const n = typeof v === 'string' && /^\d{1,5}$/.test(v.trim()) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 65535 ? n : null;
}

/** The anchor's key: its MAC when valid, else `uuid:major:minor` when all three are valid, else null. */
export function anchorKey(id: AnchorIdentity): string | null {
  const mac = normalizeMac(id.mac);
  if (mac) return mac;
  const uuid = normalizeUuid(id.uuid);
  const major = u16(id.major);
  const minor = u16(id.minor);
  return uuid && major !== null && minor !== null ? `${uuid}:${major}:${minor}` : null;
}

/** A key as written anywhere (a MAC, or `uuid:major:minor`) in its normal form; null when it is neither. */
export function normalizeAnchorKey(key: unknown): string | null {
  if (typeof key !== 'string') return null;
  const mac = normalizeMac(key);
  if (mac) return mac;
  const parts = key.split(':');
  if (parts.length !== 3) return null;
  return anchorKey({ uuid: parts[0], major: parts[1], minor: parts[2] });
}
