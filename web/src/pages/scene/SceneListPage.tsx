// Scenes (/scene/sencelist): the buildings of the caller's subtree with their owner, address, the
// kind of anchors and the positioning method, floors and anchors counted, an enabled switch; search
// by name and state; add and edit in a dialog (an owner has at most 5 scenes, SPEC §9), delete
// (refused by the server while anchors are deployed), and the way to a scene's floors, anchors and
// map.
import { useState } from 'react';
import { Switch, Tag, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { scene } from '@wt/contract';
import { shownTime } from '../../session/time';
import { useCan } from '../../access/can';
import { call } from '../../api/client';
import { userDataCell } from '../../i18n/texts';
import { ListPage, addAction, useAction, type RowAction } from '../../patterns';
import { SceneDialog, sceneEditValues } from './SceneDialog';
import { SCENE_KEY, beaconTypeName, methodName, refusalsAsError, type Scene } from './queries';

type Search = { Name?: string; Enabled?: number };

export default function SceneListPage() {
  const { t } = useTranslation('scene');
  const navigate = useNavigate();
  const mayEdit = useCan()('scene.edit');
  const [editing, setEditing] = useState<{ item: Scene | null } | null>(null);
  const toggle = useAction((s: Scene, enabled: boolean) => call('/Scene/editSceneInfo', { ...sceneEditValues(s), Enabled: enabled }), {
    invalidate: [SCENE_KEY],
  });

  const rowActions = (s: Scene): RowAction[] => [
    { key: 'map', label: t('list.map'), testId: `scene-map-${s.SceneId}`, onClick: () => navigate(`/scene/scenemap?id=${s.SceneId}`) },
    { key: 'floors', label: t('list.floors'), testId: `scene-floors-${s.SceneId}`, onClick: () => navigate(`/scene/floors?scene=${s.SceneId}`) },
    { key: 'beacons', label: t('list.beacons'), testId: `scene-beacons-${s.SceneId}`, onClick: () => navigate(`/scene/beacons?scene=${s.SceneId}`) },
    { key: 'edit', label: t('edit'), testId: `scene-edit-${s.SceneId}`, visible: mayEdit, onClick: () => setEditing({ item: s }) },
    {
      key: 'delete',
      label: t('delete'),
      danger: true,
      testId: `scene-delete-${s.SceneId}`,
      visible: mayEdit,
      confirm: t('scene.confirmDelete', { name: s.Name }),
      run: () => call('/Scene/DeleteSceneInfo', { SceneIds: [s.SceneId] }).then(refusalsAsError),
      success: t('deleted'),
      invalidate: [SCENE_KEY],
    },
  ];

  return (
    <ListPage<Scene, Search>
      queryKey={[...SCENE_KEY, 'list']}
      rowKey="SceneId"
      testId="scene-table"
      scrollX={1500}
      search={[
        { type: 'text', name: 'Name', label: t('scene.name') },
        {
          type: 'select',
          name: 'Enabled',
          label: t('scene.enabled'),
          options: [
            { value: 1, label: t('list.enabled') },
            { value: 0, label: t('list.disabled') },
          ],
          width: 140,
        },
      ]}
      fetch={({ Enabled, ...q }) => call('/Scene/SceneInfoList', { ...q, Enabled: Enabled === undefined ? undefined : Enabled === 1 })}
      toolbar={(ctx) => [
        addAction(t('scene.add'), () => setEditing({ item: null }), { visible: mayEdit, testId: 'scene-add' }),
        <Typography.Text key="count" type="secondary" data-testid="scene-count">
          {t('list.count', { count: ctx.data?.Total ?? 0, max: scene.MAX_SCENES })}
        </Typography.Text>,
      ]}
      actionsColumn={{ title: t('actions'), width: 300, fixed: 'right' }}
      rowActions={rowActions}
      columns={[
        { key: 'Name', title: t('scene.name'), dataIndex: 'Name', width: 160, fixed: 'left', onCell: userDataCell },
        { key: 'Owner', title: t('scene.owner'), dataIndex: 'OwnerLoginName', width: 120, onCell: userDataCell },
        { key: 'Address', title: t('scene.address'), dataIndex: 'Address', width: 220, ellipsis: true, onCell: userDataCell },
        { key: 'BeaconType', title: t('scene.beaconType'), render: (_, s) => <Tag>{beaconTypeName(t, s.BeaconType)}</Tag>, width: 110 },
        { key: 'Method', title: t('scene.method'), render: (_, s) => methodName(t, s.Method), width: 130 },
        { key: 'FloorCount', title: t('list.floorCount'), dataIndex: 'FloorCount', width: 80 },
        { key: 'AnchorCount', title: t('list.anchorCount'), dataIndex: 'AnchorCount', width: 80 },
        {
          key: 'Enabled',
          title: t('scene.enabled'),
          width: 90,
          render: (_, s) => (
            <Switch
              size="small"
              checked={s.Enabled}
              disabled={!mayEdit}
              loading={toggle.pending?.[0].SceneId === s.SceneId}
              onChange={(v) => void toggle.run(s, v)}
              data-testid={`scene-enabled-${s.SceneId}`}
              aria-label={t('list.enabledFor', { name: s.Name })}
            />
          ),
        },
        { key: 'CreatedAt', title: t('createdAt'), render: (_, s) => shownTime(s.CreatedAt), width: 170 },
      ]}
    >
      <SceneDialog editing={editing} mayChooseOwner={mayEdit} onClose={() => setEditing(null)} />
    </ListPage>
  );
}
