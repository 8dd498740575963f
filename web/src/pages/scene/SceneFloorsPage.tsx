// Floors (/scene/floors?scene=ID): the floors of a scene (a scene picker when none is named) with
// their plan, whether the scale is set and the plan placed on the earth, and their anchors; add and
// edit in a dialog, delete, and two tools: the scale (two points and a distance) and the place on
// the outdoor map (move and turn). The floor's anchors are one click away.
import { useState } from 'react';
import { Card, Space, Tag, Typography } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { scene } from '@wt/contract';
import { useCan } from '../../access/can';
import { call } from '../../api/client';
import { userDataCell } from '../../i18n/texts';
import { ListPage, addAction, type RowAction } from '../../patterns';
import { FloorDialog } from './FloorDialog';
import { PlaceTool } from './PlaceTool';
import { ScaleTool } from './ScaleTool';
import { SceneSelect } from './SceneSelect';
import { SCENE_KEY, floorTypeName, idParam, refusalsAsError, useAllScenes, type Floor } from './queries';

export default function SceneFloorsPage() {
  const { t } = useTranslation('scene');
  const navigate = useNavigate();
  const mayEdit = useCan()('scene.edit');
  const [params, setParams] = useSearchParams();
  const sceneId = idParam(params.get('scene'));
  const scenes = useAllScenes();
  const current = scenes.data?.find((s) => s.SceneId === sceneId) ?? null;
  const [editing, setEditing] = useState<{ item: Floor | null } | null>(null);
  const [scaling, setScaling] = useState<Floor | null>(null);
  const [placing, setPlacing] = useState<Floor | null>(null);

  const picker = (
    <Space wrap>
      <Typography.Text>{t('scene.title')}</Typography.Text>
      <SceneSelect value={sceneId} onChange={(id, o) => setParams({ scene: String(id) }, o)} />
    </Space>
  );
  if (!sceneId)
    return (
      <Card>
        <Space orientation="vertical">
          <Typography.Text type="secondary">{t('pickScene')}</Typography.Text>
          {picker}
        </Space>
      </Card>
    );

  const rowActions = (f: Floor): RowAction[] => [
    { key: 'scale', label: t('floor.scale'), testId: `floor-scale-${f.FloorId}`, visible: mayEdit, disabled: !f.PlanUrl, onClick: () => setScaling(f) },
    {
      key: 'place',
      label: t('floor.place'),
      testId: `floor-place-${f.FloorId}`,
      visible: mayEdit,
      disabled: !f.MetresPerPixel,
      title: f.MetresPerPixel ? undefined : t('messages:scene.noScale'),
      onClick: () => setPlacing(f),
    },
    {
      key: 'beacons',
      label: t('list.beacons'),
      testId: `floor-beacons-${f.FloorId}`,
      onClick: () => navigate(`/scene/beacons?scene=${f.SceneId}&floor=${f.FloorId}`),
    },
    { key: 'edit', label: t('edit'), testId: `floor-edit-${f.FloorId}`, visible: mayEdit, onClick: () => setEditing({ item: f }) },
    {
      key: 'delete',
      label: t('delete'),
      danger: true,
      testId: `floor-delete-${f.FloorId}`,
      visible: mayEdit,
      confirm: t('floor.confirmDelete', { name: f.Name }),
      run: () => call('/Scene/DeleteFoorsInfo', { FloorIds: [f.FloorId] }).then(refusalsAsError),
      success: t('deleted'),
      invalidate: [SCENE_KEY],
    },
  ];

  return (
    <ListPage<Floor>
      key={sceneId}
      header={<div style={{ marginBottom: 12 }}>{picker}</div>}
      queryKey={[...SCENE_KEY, 'floors', sceneId]}
      rowKey="FloorId"
      testId="floor-table"
      scrollX={1300}
      fetch={(q) => call('/Scene/FoorsInfoList', { ...q, SceneId: sceneId })}
      toolbar={(ctx) => [
        addAction(t('floor.add'), () => setEditing({ item: null }), { visible: mayEdit, testId: 'floor-add' }),
        <Typography.Text key="count" type="secondary">
          {t('floor.count', { count: ctx.data?.Total ?? 0, max: scene.MAX_FLOORS })}
        </Typography.Text>,
      ]}
      actionsColumn={{ title: t('actions'), width: 390, fixed: 'right' }}
      rowActions={rowActions}
      columns={[
        { key: 'FloorNo', title: t('floor.floorNo'), dataIndex: 'FloorNo', width: 80 },
        { key: 'Name', title: t('floor.name'), dataIndex: 'Name', width: 150, onCell: userDataCell },
        { key: 'Type', title: t('floor.type'), render: (_, f) => floorTypeName(t, f.Type), width: 90 },
        {
          key: 'Plan',
          title: t('floor.plan'),
          width: 130,
          render: (_, f) =>
            f.PlanUrl ? (
              <Space orientation="vertical" size={0}>
                <img src={f.PlanUrl} alt="" style={{ width: 96, height: 64, objectFit: 'contain', background: '#fafafa' }} />
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {f.Width}×{f.Height}
                </Typography.Text>
              </Space>
            ) : (
              <Tag>{t('floor.noPlan')}</Tag>
            ),
        },
        {
          key: 'Scale',
          title: t('floor.scale'),
          width: 150,
          render: (_, f) =>
            f.MetresPerPixel ? (
              <Tag color="green" data-testid={`floor-scale-set-${f.FloorId}`}>
                {t('scale.value', { value: f.MetresPerPixel })}
              </Tag>
            ) : (
              <Tag color="orange">{t('floor.noScale')}</Tag>
            ),
        },
        {
          key: 'Placed',
          title: t('floor.placed'),
          width: 110,
          render: (_, f) => (f.Geo ? <Tag color="green">{t('floor.isPlaced')}</Tag> : <Tag color="orange">{t('floor.notPlaced')}</Tag>),
        },
        { key: 'AnchorCount', title: t('list.anchorCount'), dataIndex: 'AnchorCount', width: 80 },
        { key: 'Description', title: t('floor.description'), dataIndex: 'Description', ellipsis: true, onCell: userDataCell },
      ]}
    >
      <FloorDialog sceneId={sceneId} editing={editing} onClose={() => setEditing(null)} />
      <ScaleTool floor={scaling} onClose={() => setScaling(null)} />
      <PlaceTool floor={placing} sceneLocation={current ? { Lat: current.Lat, Lon: current.Lon } : null} onClose={() => setPlacing(null)} />
    </ListPage>
  );
}
