// What the console does once alarms are confirmed, wherever that happened (the record list, the
// single-device page, the monitor): every alarm list, the monitor's and the dashboard's counts are
// asked again, a handled SOS stops blinking on the map, and the pop-ups of the alarms handled close.
import type { QueryClient } from '@tanstack/react-query';
import { SOS_NOTIFICATION_TYPE } from '@wt/contract';
import { call } from '../../api/client';
import { liveDevices, STATUS } from '../../map/deviceStore';
import { closeNotices } from '../../realtime/alarmNotices';
import { emitRefresh } from '../../realtime/events';
import { useRealtime } from '../../realtime/store';
import { ALARM_KEY } from './queries';

export type ConfirmedScope =
  /** These alarms, of known devices and types. */
  | { alarms: { deviceId: number; type: number }[] }
  /** All of today's alarms of one device. */
  | { device: { id?: number; imei?: string } }
  /** All of today's alarms of the subtree. */
  | { all: true };

export async function afterAlarmsConfirmed(qc: QueryClient, scope: ConfirmedScope): Promise<void> {
  if ('alarms' in scope) {
    for (const a of scope.alarms) {
      closeNotices((n) => n.deviceId === a.deviceId && n.type === a.type);
      // One open SOS per device: confirming it ends the device's SOS state.
      if (a.type === SOS_NOTIFICATION_TYPE) {
        liveDevices.setSos(a.deviceId, false);
        useRealtime.getState().clearSos(a.deviceId);
      }
    }
  } else if ('device' in scope) {
    const { id, imei } = scope.device;
    const deviceId = id ?? [...liveDevices.records.values()].find((r) => r.imei === imei)?.id;
    closeNotices((n) => n.deviceId === deviceId || n.imei === imei);
    if (deviceId !== undefined && liveDevices.records.get(deviceId)?.status === STATUS.sos) {
      // "Today" may not hold the device's open SOS (one raised before midnight stays open): ask.
      const open = await call('/ExceptionMessage/allExceptionMsgPage', { PageNo: 1, PageCount: 1, DeviceId: deviceId, Type: [SOS_NOTIFICATION_TYPE], Status: 0 }).catch(() => null);
      if (open?.Total === 0) {
        liveDevices.setSos(deviceId, false);
        useRealtime.getState().clearSos(deviceId);
      }
    }
  } else {
    closeNotices();
    // Any number of devices may have left the SOS state: the pages that show states load them again.
    emitRefresh();
  }
  await Promise.all([
    qc.invalidateQueries({ queryKey: ALARM_KEY }),
    qc.invalidateQueries({ queryKey: ['monitor'] }),
    qc.invalidateQueries({ queryKey: ['dashboard'] }),
  ]);
}
