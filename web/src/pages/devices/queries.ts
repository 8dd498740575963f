// Queries the device pages share: the form choices (models, groups, roles), and the refresh of
// every device list after a change.
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { device, fence } from '@wt/contract';
import { call } from '../../api/client';

export type DeviceItem = device.DeviceItem;
export type Fence = fence.Fence;

export const DEVICE_KEYS = {
  list: ['devices', 'list'] as const,
  dictionary: ['devices', 'dictionary'] as const,
  detail: (imei: string) => ['devices', 'detail', imei] as const,
  roles: ['devices', 'roles'] as const,
  groups: ['devices', 'groups'] as const,
  fences: (imei: string) => ['devices', 'fences', imei] as const,
  commands: (imei: string) => ['devices', 'commands', imei] as const,
};

export function useDictionary() {
  return useQuery({ queryKey: DEVICE_KEYS.dictionary, queryFn: () => call('/Device/allDictionary', {}), staleTime: 60_000 });
}

/** After a change to devices: lists, detail, roles and groups (their counts) are stale. */
export function invalidateDevices(qc: QueryClient): Promise<void> {
  return qc.invalidateQueries({ queryKey: ['devices'] });
}
