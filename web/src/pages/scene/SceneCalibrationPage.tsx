// Beacon calibration (/scene/calibration?scene=&floor=): a scene and floor picker and the floor's
// distance-model calibration from its anchors hearing each other (the same panel the floor's anchor
// page shows beside its plan), for BLE and UWB floors.
import { useEffect } from 'react';
import { Card, Space, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../access/can';
import { USER_DATA } from '../../i18n/texts';
import { CalibrationPanel } from './CalibrationPanel';
import { FloorSelect, SceneSelect } from './SceneSelect';
import { idParam, useAllScenes, useFloorDetail } from './queries';

export default function SceneCalibrationPage() {
  const { t } = useTranslation('scene');
  const mayEdit = useCan()('scene.edit');
  const [params, setParams] = useSearchParams();
  const floorId = idParam(params.get('floor'));
  const floor = useFloorDetail(floorId);
  const sceneId = idParam(params.get('scene')) ?? floor.data?.SceneId;
  const scenes = useAllScenes();

  // A scene without a floor named opens its lowest floor, as on the anchors page.
  useEffect(() => {
    if (!sceneId || floorId || !scenes.data) return;
    const floors = scenes.data.find((s) => s.SceneId === sceneId)?.Floors ?? [];
    const first = [...floors].sort((a, b) => a.FloorNo - b.FloorNo)[0];
    if (first) setParams({ scene: String(sceneId), floor: String(first.FloorId) }, { replace: true });
  }, [sceneId, floorId, scenes.data, setParams]);

  const f = floor.data;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="scene-calibration">
      <Card size="small">
        <Space wrap>
          <SceneSelect value={sceneId} onChange={(id, o) => setParams({ scene: String(id) }, o)} />
          <FloorSelect sceneId={sceneId} value={floorId} onChange={(id) => setParams({ scene: String(sceneId), floor: String(id) })} />
          {f ? (
            <Typography.Text type="secondary" {...USER_DATA}>
              {t('floor.label', { no: f.FloorNo, name: f.Name })}
            </Typography.Text>
          ) : null}
        </Space>
      </Card>
      {f ? (
        <CalibrationPanel key={f.FloorId} floorId={f.FloorId} exponent={f.Exponent} mayEdit={mayEdit} />
      ) : floorId && floor.isLoading ? (
        // The chosen floor is on its way: not a prompt to choose one.
        <Card loading />
      ) : (
        <Card>
          <Typography.Text type="secondary">{sceneId ? t('pickFloor') : t('pickScene')}</Typography.Text>
        </Card>
      )}
    </Space>
  );
}
