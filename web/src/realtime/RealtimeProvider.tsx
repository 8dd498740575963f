// Keeps the realtime connection open while the shell is, feeds device batches to the map's store,
// and turns alarms into notifications (SPEC §4 "Alarm notification", §9): 4500 ms, sticky for
// types 5, 150 and 151 unless the user's alarm setting says otherwise, each with the sound its
// alarm type's ring type (or the user's "ring" setting) asks for (alarmSound.ts).
import { useEffect, useRef, useState } from 'react';
import { App, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useCan, useMayOpen } from '../access/can';
import { errorText } from '../i18n/errors';
import { afterAlarmsConfirmed } from '../pages/alarm/confirm';
import { ALARM_KEY } from '../pages/alarm/queries';
import { ALWAYS_ON_ALARM_CODES, LIMITS, REFRESH_NOTIFICATION_TYPE, SOS_NOTIFICATION_TYPE, type RealtimeMessage } from '@wt/contract';
import { call } from '../api/client';
import { useSession } from '../stores/session';
import { liveDevices } from '../map/deviceStore';
import { indoorLive } from '../indoor/live/indoorStore';
import { AlarmMessage } from '../i18n/AlarmMessage';
import { useAlarmTypeName, useAlarmTypes } from '../pages/alarm/queries';
import {
  MORE_NOTICE_KEY,
  admitNotice,
  closeNoticeKeys,
  closeNotices,
  moreNoticeClosed,
  noticeClosed,
  noticeOpened,
  setNoticeClosedListener,
  setNoticeCloser,
} from './alarmNotices';
import { AlarmSoundPlayer, alarmSoundOf } from './alarmSound';
import { RealtimeConnection } from './connection';
import { emitCommands, emitRefresh } from './events';
import { useRealtime } from './store';
import { SECONDARY_TEXT } from '../app/theme';
import { shownTime } from '../session/time';

export const ALARM_SOUND_URL = '/sounds/alarm.wav';

interface AlarmSetting {
  NewState: number;
  RingType: number;
}

/** How long an alarm's notification stays (0: until closed), and whether it pops up at all. */
export function notificationPolicy(type: number, setting: AlarmSetting | undefined): { show: boolean; durationS: number } {
  if (!setting) return { show: true, durationS: (LIMITS.stickyAlarmTypes as readonly number[]).includes(type) ? 0 : LIMITS.notificationMs / 1000 };
  if (setting.NewState === 2) return { show: false, durationS: 0 };
  return { show: true, durationS: setting.RingType === 1 ? 0 : LIMITS.notificationMs / 1000 };
}

export function RealtimeProvider() {
  const { t } = useTranslation('monitor');
  const { notification, message } = App.useApp();
  // Signed in or not: a renewed token is read when needed, it does not restart the connection.
  const token = useSession((s) => !!s.token);
  const userId = useSession((s) => s.userId);
  const settings = useRef(new Map<number, AlarmSetting>());
  const [settingsLoaded, setSettingsLoaded] = useState(false);
  const soundOn = useRealtime((s) => s.soundOn);
  const status = useRealtime((s) => s.status);
  // The ring type of each alarm type, by code.
  const types = useAlarmTypes().data;
  const rings = useRef(new Map<number, number>());
  rings.current = new Map((types ?? []).map((x) => [x.Code, x.RingType]));
  const player = useRef<AlarmSoundPlayer | null>(null);
  player.current ??= new AlarmSoundPlayer(ALARM_SOUND_URL, (on) => useRealtime.getState().setSoundOn(on));
  const tRef = useRef(t);
  tRef.current = t;
  const typeNameOf = useAlarmTypeName();
  const typeName = useRef(typeNameOf);
  typeName.current = typeNameOf;
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  // What the pop-up's buttons may do, read when an alarm arrives.
  const can = useCan();
  const mayOpen = useMayOpen();
  const qc = useQueryClient();
  const allowed = useRef({ confirm: false, device: false });
  allowed.current = { confirm: can('alarm.confirm'), device: mayOpen('/devices/detail') };
  const ctx = useRef({ qc, message, userId });
  ctx.current = { qc, message, userId };

  // The user's alarm settings; a server without them (501) or a failure means "no settings".
  useEffect(() => {
    if (!token) return;
    call('/ExceptionMessage/AlarmRulesByUserId', { UserId: userId ?? undefined })
      .then((r) => {
        settings.current = new Map(r.Items.filter((s) => s.State === 1).map((s) => [s.Code, s]));
      })
      .catch(() => (settings.current = new Map()))
      .finally(() => setSettingsLoaded(true));
  }, [token, userId]);

  useEffect(() => setNoticeCloser((key) => notification.destroy(key)), [notification]);
  useEffect(() => {
    const p = player.current!;
    setNoticeClosedListener((key) => p.stop(key));
    return () => p.dispose();
  }, []);

  useEffect(() => {
    if (!token) return;
    const conn = new RealtimeConnection(() => ({ token: useSession.getState().token, userId: useSession.getState().userId }));
    const store = useRealtime.getState();
    const unsubscribe = conn.subscribe({
      onStatus: (s) => {
        store.setStatus(s);
        if (s === 'unsupported') window.alert(tRef.current('realtime.unsupported'));
      },
      onReconnected: () => emitRefresh(),
      onMessage: (m: RealtimeMessage) => {
        if (m.type === 'devices') {
          liveDevices.apply(m.devices);
          indoorLive.apply(m.devices);
        }
        else if (m.type === 'commands') emitCommands(m.commands);
        else if (m.type === 'alarmCleared') {
          // The condition ended (back online, charged, back in range, back inside): its pop-ups close
          // and the lists show it cleared.
          const types = new Set(m.alarms.map((x) => x.type));
          closeNotices((n) => n.deviceId === m.deviceId && types.has(n.type));
          void ctx.current.qc.invalidateQueries({ queryKey: ALARM_KEY });
        }
        else if (m.type === 'refresh' || (m.type === 'alarm' && m.alarm.NotificationType === REFRESH_NOTIFICATION_TYPE)) emitRefresh();
        else if (m.type === 'alarm') {
          const a = m.alarm;
          const key = `alarm-${m.deviceId}-${a.NotificationType}-${Date.now()}`;
          useRealtime.getState().pushAlarm({ ...a, key, deviceId: m.deviceId, receivedAt: Date.now() });
          if (a.NotificationType === SOS_NOTIFICATION_TYPE) liveDevices.setSos(m.deviceId, true);
          const setting = settings.current.get(a.NotificationType);
          const policy = notificationPolicy(a.NotificationType, setting);
          if (!policy.show) return;
          const tt = tRef.current;
          const opened = { deviceId: m.deviceId, imei: a.DeviceID, type: a.NotificationType };
          const sound = alarmSoundOf(rings.current.get(a.NotificationType), setting);
          const slot = admitNotice(key, ALWAYS_ON_ALARM_CODES.includes(a.NotificationType));
          closeNoticeKeys(slot.evict);
          if (slot.folded > 0) {
            notification.open({
              key: MORE_NOTICE_KEY,
              type: 'info',
              title: tt('alarm.folded', { count: slot.folded }),
              duration: 0,
              placement: 'bottomRight',
              className: 'wt-alarm-more',
              actions: (
                <Button
                  type="link"
                  size="small"
                  data-testid="alarm-more-records"
                  onClick={() => {
                    notification.destroy(MORE_NOTICE_KEY);
                    moreNoticeClosed();
                    navigateRef.current('/alarm/record');
                  }}
                >
                  {tt('alarm.all')}
                </Button>
              ),
              onClose: moreNoticeClosed,
            });
          }
          noticeOpened(key, opened);
          player.current!.start(key, sound);
          // A click on the pop-up opens the device on the monitor, where the alarm is confirmed.
          const openOnMonitor = () => {
            closeNotices((n) => n === opened);
            navigateRef.current(`/?device=${m.deviceId}`);
          };
          // The pop-up's own handling: acknowledge (the confirm call) and assign to me need
          // alarm.confirm and the record's id, opening the device needs its detail page.
          const may = allowed.current;
          const alarmId = a.AlarmId;
          const act = async (what: 'acknowledge' | 'assign') => {
            const { qc: client, message: msg, userId: me } = ctx.current;
            const ttt = tRef.current;
            try {
              if (what === 'acknowledge') {
                await call('/ExceptionMessage/updateExceptionByID', { Id: alarmId!, Remark: '' });
                msg.success(ttt('alarm.acknowledged'));
                await afterAlarmsConfirmed(client, { alarms: [{ deviceId: m.deviceId, type: a.NotificationType }] });
              } else {
                await call('/AlarmRecord/Assign', { Id: alarmId!, AssigneeId: me! });
                msg.success(ttt('alarm.assignedToMe'));
                await client.invalidateQueries({ queryKey: [...ALARM_KEY, 'records'] });
              }
            } catch (e) {
              msg.error(errorText(ttt, e));
            }
          };
          const stop = (fn: () => void) => (e: React.MouseEvent) => {
            e.stopPropagation();
            fn();
          };
          notification.open({
            key,
            type: a.NotificationType === SOS_NOTIFICATION_TYPE ? 'error' : 'warning',
            // The device's name is the user's: kept out of the checks for untranslated text.
            title: (
              <>
                {typeName.current(a.NotificationType)} · <span data-user-data>{a.Nickname || a.DeviceID}</span>
              </>
            ),
            description: (
              <div className="wt-alarm-note" data-alarm-type={a.NotificationType} data-sticky={policy.durationS === 0 ? '1' : '0'} data-ring={sound}>
                <div>
                  <AlarmMessage messageKey={a.MessageKey} params={a.MessageParams} text={a.Message} />
                </div>
                <div style={{ color: SECONDARY_TEXT, fontSize: 12 }}>
                  IMEI {a.DeviceID} · {shownTime(a.Created)}
                </div>
              </div>
            ),
            duration: policy.durationS,
            placement: slot.placement,
            className: 'wt-alarm-notice',
            onClick: openOnMonitor,
            style: { cursor: 'pointer' },
            actions: (
              <div className="wt-alarm-actions">
                {may.confirm && alarmId ? (
                  <Button type="link" size="small" data-testid="alarm-acknowledge" onClick={stop(() => void act('acknowledge'))}>
                    {tt('alarm.acknowledge')}
                  </Button>
                ) : null}
                {may.confirm && alarmId && ctx.current.userId ? (
                  <Button type="link" size="small" data-testid="alarm-assign-me" onClick={stop(() => void act('assign'))}>
                    {tt('alarm.assignToMe')}
                  </Button>
                ) : null}
                {may.device ? (
                  <Button
                    type="link"
                    size="small"
                    data-testid="alarm-open-device"
                    onClick={stop(() => {
                      closeNotices((n) => n === opened);
                      navigateRef.current(`/devices/detail?imei=${encodeURIComponent(a.DeviceID)}`);
                    })}
                  >
                    {tt('alarm.openDevice')}
                  </Button>
                ) : null}
                <Button type="link" size="small" data-testid="alarm-open-monitor" onClick={stop(openOnMonitor)}>
                  {tt('alarm.openOnMonitor')}
                </Button>
              </div>
            ),
            onClose: () => noticeClosed(key),
          });
        }
      },
    });
    conn.start();
    return () => {
      unsubscribe();
      conn.stop();
    };
  }, [token, notification]);

  // `data-rules`: the alarm types and the user's settings are known, so each alarm rings as it should.
  return <span hidden data-testid="alarm-sound" data-sound={soundOn ? 'on' : 'off'} data-realtime={status} data-rules={types && settingsLoaded ? '1' : '0'} />;
}
