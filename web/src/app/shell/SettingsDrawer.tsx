import { ColorPicker, Drawer, Button, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSettings, type Settings } from '../../stores/settings';
import { THEME_PRESETS } from '../theme';

export function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('shell');
  const s = useSettings();
  const row = (label: string, control: React.ReactNode) => (
    <div className="wt-setting-row">
      <span>{label}</span>
      {control}
    </div>
  );
  const toggle = (key: Exclude<keyof Settings, 'themeColor'>) => (
    <Switch checked={s[key]} onChange={(v) => s.change(key, v)} aria-label={t(`settings.${key}`)} />
  );
  return (
    <Drawer title={t('settings.title')} placement="right" open={open} onClose={onClose} size={300}>
      {row(
        t('settings.themeColor'),
        <ColorPicker
          value={s.themeColor}
          disabledAlpha
          presets={[{ label: t('settings.themeColor'), colors: THEME_PRESETS }]}
          onChangeComplete={(c) => s.change('themeColor', c.toHexString())}
        />,
      )}
      {row(t('settings.tagsView'), toggle('tagsView'))}
      {row(t('settings.fixedHeader'), toggle('fixedHeader'))}
      {row(t('settings.sidebarLogo'), toggle('sidebarLogo'))}
      <Button block style={{ marginTop: 24 }} onClick={s.reset}>
        {t('settings.reset')}
      </Button>
    </Drawer>
  );
}
