// Map settings on the monitor: normal or satellite, the base layer source, and the user's
// switches kept on the server: device names, account fences, SOS animation.
import { App, Segmented, Select, Space, Switch, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { useSession } from '../../../stores/session';
import { useMapSettings, type MapMode, type TileProvider } from '../../../map/settings';
import { useMapSources } from '../../../map/sources';

export function MapToolbar() {
  const { t } = useTranslation('monitor');
  const { message } = App.useApp();
  const { provider, mode, set } = useMapSettings();
  const { sources } = useMapSources();
  const info = useSession((s) => s.userInfo);
  const userId = useSession((s) => s.userId) ?? undefined;

  const save = async (fn: () => Promise<{ UserInfo: Parameters<ReturnType<typeof useSession.getState>['setUserInfo']>[0] }>) => {
    try {
      const r = await fn();
      useSession.getState().setUserInfo(r.UserInfo);
    } catch {
      void message.error(t('toolbar.saveFailed'));
    }
  };

  return (
    <div className="wt-map-toolbar">
      <Space size={10} wrap>
        <Segmented
          size="small"
          value={mode}
          onChange={(v) => set({ mode: v as MapMode })}
          options={[
            { value: 'normal', label: t('toolbar.normal') },
            { value: 'satellite', label: t('toolbar.satellite') },
          ]}
          data-testid="map-mode"
        />
        <Select
          size="small"
          value={provider}
          onChange={(v: TileProvider) => set({ provider: v })}
          style={{ width: 128 }}
          options={sources.map((s) => ({ value: s.Id, label: t(`toolbar.provider.${s.Id}`) }))}
          aria-label={t('toolbar.source')}
        />
        <Tooltip title={t('toolbar.labelsHint')}>
          <Space size={4}>
            <Switch
              size="small"
              checked={info?.isShowMapLabel === 1}
              aria-label={t('toolbar.labels')}
              onChange={(on) => save(() => call('/User/EditUserInfoByStatus', { UserId: userId, isShowMapLabel: on ? 1 : 2 }))}
            />
            <span>{t('toolbar.labels')}</span>
          </Space>
        </Tooltip>
        <Space size={4}>
          <Switch
            size="small"
            checked={info?.IsShowMonitorFence === 1}
            aria-label={t('toolbar.fences')}
            onChange={(on) => save(() => call('/User/EditUserInfoByFenceStatus', { UserId: userId, IsShowMonitorFence: on ? 1 : 2 }))}
          />
          <span>{t('toolbar.fences')}</span>
        </Space>
        <Space size={4}>
          <Switch
            size="small"
            checked={info?.switchAnimation === 1}
            aria-label={t('toolbar.sosAnimation')}
            onChange={(on) => save(() => call('/User/EditUserInfoBySosAlarm', { UserId: userId, switchAnimation: on ? 1 : 2 }))}
          />
          <span>{t('toolbar.sosAnimation')}</span>
        </Space>
      </Space>
    </div>
  );
}
