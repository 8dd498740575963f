// The scene and floor pickers of the scene pages: every scene of the caller's subtree (enabled or
// not), and the floors of one scene in floor order.
import { useEffect } from 'react';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { userDataOptions } from '../../i18n/texts';
import { useAllScenes } from './queries';

/**
 * Without a scene chosen (a page opened from the menu), the first scene is taken, replacing the
 * address rather than adding a step to the history.
 */
export function SceneSelect({ value, onChange, testId }: { value?: number; onChange: (id: number, o?: { replace: boolean }) => void; testId?: string }) {
  const { t } = useTranslation('scene');
  const scenes = useAllScenes();
  const first = scenes.data?.[0]?.SceneId;
  useEffect(() => {
    if (value === undefined && first !== undefined) onChange(first, { replace: true });
  }, [value, first, onChange]);
  return (
    <Select<number>
      value={value}
      onChange={(id) => onChange(id)}
      loading={scenes.isLoading}
      placeholder={t('pickScene')}
      style={{ minWidth: 220 }}
      showSearch={{ optionFilterProp: 'label' }}
      options={(scenes.data ?? []).map((s) => ({ value: s.SceneId, label: s.Name }))}
      {...userDataOptions}
      data-testid={testId ?? 'scene-select'}
    />
  );
}

export function FloorSelect({
  sceneId,
  value,
  onChange,
  testId,
}: {
  sceneId: number | undefined;
  value?: number;
  onChange: (id: number) => void;
  testId?: string;
}) {
  const { t } = useTranslation('scene');
  const scenes = useAllScenes();
  const floors = [...(scenes.data?.find((s) => s.SceneId === sceneId)?.Floors ?? [])].sort((a, b) => a.FloorNo - b.FloorNo);
  return (
    <Select<number>
      value={value}
      onChange={onChange}
      disabled={!sceneId}
      loading={scenes.isLoading}
      placeholder={t('pickFloor')}
      style={{ minWidth: 200 }}
      options={floors.map((f) => ({ value: f.FloorId, label: t('floor.label', { no: f.FloorNo, name: f.Name }) }))}
      {...userDataOptions}
      data-testid={testId ?? 'floor-select'}
    />
  );
}
