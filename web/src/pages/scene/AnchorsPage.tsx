// The anchors of a floor (/scene/beacons?scene=&floor=, and /scene/aoa for AOA locators only):
// a scene and floor picker, the floor's plan with its anchors drawn by type and state (a click on
// the plan adds an anchor there, a drag moves one, an AOA arrow's tip turns the locator), the list
// of anchors with edit, delete, batch edit and batch delete, and (BLE and UWB) the calibration of
// the floor's distance model from anchors hearing each other.
import { useEffect, useState } from 'react';
import { App, Card, Col, Row, Space, Tag, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { scene } from '@wt/contract';
import { useCan } from '../../access/can';
import { call } from '../../api/client';
import { AnchorMarkers, ANCHOR_COLOURS, type AnchorMark } from '../../indoor/AnchorMarkers';
import { PlanView } from '../../indoor/PlanView';
import { USER_DATA, userDataCell } from '../../i18n/texts';
import { ListPage, addAction, useAction, type RowAction } from '../../patterns';
import { AnchorBatchDialog, AnchorDialog, anchorEditValues, type AnchorDraft } from './AnchorDialogs';
import { CalibrationPanel } from './CalibrationPanel';
import { FloorSelect, SceneSelect } from './SceneSelect';
import { SCENE_KEY, anchorStateName, anchorTypeName, idParam, options, refusalsAsError, useAllScenes, useFloorDetail, type Anchor } from './queries';

/** Plan positions are kept to the centimetre. */
const cm = (v: number) => Math.round(v * 100) / 100;

function Legend({ aoa }: { aoa: boolean }) {
  const { t } = useTranslation('scene');
  const types = aoa ? [3] : [...scene.ANCHOR_TYPES];
  return (
    <Space size={4} wrap>
      {types.map((type) => (
        <Tag key={type} color={ANCHOR_COLOURS[type]}>
          {anchorTypeName(t, type)}
        </Tag>
      ))}
      <Tag color="default">{anchorStateName(t, 2)}</Tag>
    </Space>
  );
}

export function AnchorsPage({ aoa }: { aoa: boolean }) {
  const { t } = useTranslation('scene');
  const { message } = App.useApp();
  const mayEdit = useCan()('scene.edit');
  const [params, setParams] = useSearchParams();
  const floorId = idParam(params.get('floor'));
  const floor = useFloorDetail(floorId);
  const sceneId = idParam(params.get('scene')) ?? floor.data?.SceneId;
  const scenes = useAllScenes();
  const [editing, setEditing] = useState<{ item: Anchor } | { draft: AnchorDraft } | null>(null);
  const [batch, setBatch] = useState<{ ids: number[]; clear: () => void } | null>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);

  // A scene without a floor named opens its lowest floor.
  useEffect(() => {
    if (!sceneId || floorId || !scenes.data) return;
    const floors = scenes.data.find((s) => s.SceneId === sceneId)?.Floors ?? [];
    const first = [...floors].sort((a, b) => a.FloorNo - b.FloorNo)[0];
    if (first) setParams({ scene: String(sceneId), floor: String(first.FloorId) }, { replace: true });
  }, [sceneId, floorId, scenes.data, setParams]);

  const f = floor.data;
  const anchors = (f?.Anchors ?? []).filter((a) => !aoa || a.Type === 3);
  const byId = new Map(anchors.map((a) => [a.BeaconId, a]));
  const defaultType: AnchorDraft['Type'] = aoa ? 3 : f?.Scene.BeaconType === 2 ? 2 : 1;

  const save = useAction((a: Anchor, change: Partial<Anchor>) => call('/Scene/editBeaconsInfo', { ...anchorEditValues(a), ...change }), {
    invalidate: [SCENE_KEY],
  });

  const addAt = (x: number, y: number) => {
    if (!f) return;
    setEditing({ draft: { FloorId: f.FloorId, X: cm(x), Y: cm(y), Type: defaultType } });
  };

  const pickers = (
    <Space wrap>
      <SceneSelect value={sceneId} onChange={(id, o) => setParams({ scene: String(id) }, o)} />
      <FloorSelect sceneId={sceneId} value={floorId} onChange={(id) => setParams({ scene: String(sceneId), floor: String(id) })} />
      <Legend aoa={aoa} />
    </Space>
  );

  if (!floorId)
    return (
      <Card>
        <Space orientation="vertical">
          <Typography.Text type="secondary">{sceneId ? t('pickFloor') : t('pickScene')}</Typography.Text>
          {pickers}
        </Space>
      </Card>
    );

  const scaled = !!f?.MetresPerPixel;
  const rowActions = (a: Anchor): RowAction[] => [
    { key: 'locate', label: t('anchor.locate'), testId: `anchor-locate-${a.BeaconId}`, onClick: () => setSelectedId(a.BeaconId) },
    { key: 'edit', label: t('edit'), testId: `anchor-edit-${a.BeaconId}`, visible: mayEdit, onClick: () => setEditing({ item: a }) },
    {
      key: 'delete',
      label: t('delete'),
      danger: true,
      testId: `anchor-delete-${a.BeaconId}`,
      visible: mayEdit,
      confirm: t('anchor.confirmDelete', { name: a.Name }),
      run: () => call('/Scene/DeleteBeaconsInfo', { BeaconIds: [a.BeaconId] }).then(refusalsAsError),
      success: t('deleted'),
      invalidate: [SCENE_KEY],
    },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card size="small">{pickers}</Card>
      <Row gutter={16}>
        <Col xs={24} xl={aoa ? 24 : 16}>
          <Card
            size="small"
            title={f ? <span {...USER_DATA}>{t('floor.label', { no: f.FloorNo, name: f.Name })}</span> : ''}
            extra={
              <Typography.Text type="secondary">
                {!f ? null : scaled ? (mayEdit ? t('anchor.planHint') : null) : t('messages:scene.noScale')}
              </Typography.Text>
            }
            loading={floor.isLoading}
          >
            <div style={{ height: 560 }}>
              {f ? (
                <PlanView
                  planUrl={f.PlanUrl}
                  width={f.Width}
                  height={f.Height}
                  metresPerPixel={f.MetresPerPixel}
                  cursor={mayEdit && scaled ? 'crosshair' : undefined}
                  onPlanClick={(p) => {
                    if (!mayEdit) return;
                    if (!p.scaled) {
                      message.warning(t('messages:scene.noScale'));
                      return;
                    }
                    addAt(p.metres[0], p.metres[1]);
                  }}
                >
                  <AnchorMarkers
                    anchors={anchors}
                    selectedId={selectedId}
                    editable={mayEdit && scaled}
                    showHeading
                    onSelect={(a: AnchorMark) => {
                      setSelectedId(a.BeaconId);
                      const full = byId.get(a.BeaconId);
                      if (full && mayEdit) setEditing({ item: full });
                    }}
                    onMove={(a, at) => {
                      const full = byId.get(a.BeaconId);
                      return full ? save.run(full, { X: cm(at[0]), Y: cm(at[1]) }) : undefined;
                    }}
                    onTurn={(a, heading) => {
                      const full = byId.get(a.BeaconId);
                      return full ? save.run(full, { Heading: heading }) : undefined;
                    }}
                  />
                </PlanView>
              ) : null}
            </div>
          </Card>
        </Col>
        {!aoa && f ? (
          <Col xs={24} xl={8}>
            <CalibrationPanel floorId={f.FloorId} exponent={f.Exponent} mayEdit={mayEdit} />
          </Col>
        ) : null}
      </Row>
      <ListPage<Anchor, { Keyword?: string; Type?: number }>
        key={`${floorId}-${aoa}`}
        queryKey={[...SCENE_KEY, 'anchors', floorId, aoa]}
        rowKey="BeaconId"
        testId="anchor-table"
        scrollX={1500}
        search={[
          { type: 'text', name: 'Keyword', label: t('anchor.keyword') },
          {
            type: 'select',
            name: 'Type',
            label: t('anchor.type'),
            options: options(scene.ANCHOR_TYPES, (v) => anchorTypeName(t, v)),
            visible: !aoa,
            width: 160,
          },
        ]}
        fetch={(q) => call('/Scene/BeaconsInfoList', { ...q, FloorId: floorId, Type: aoa ? 3 : (q.Type as 1 | 2 | 3 | undefined) })}
        toolbar={[
          addAction(
            t('anchor.add'),
            () => (f?.MetresPerPixel ? addAt((f.Width * f.MetresPerPixel) / 2, (f.Height * f.MetresPerPixel) / 2) : message.warning(t('messages:scene.noScale'))),
            { visible: mayEdit, testId: 'anchor-add' },
          ),
          {
            key: 'batch-edit',
            label: t('anchor.batchEditButton'),
            batch: true,
            visible: mayEdit,
            testId: 'anchor-batch-edit',
            onClick: (ctx) => setBatch({ ids: ctx.selectedKeys.map(Number), clear: ctx.clearSelection }),
          },
          {
            key: 'batch-delete',
            label: t('anchor.batchDelete'),
            batch: true,
            danger: true,
            visible: mayEdit,
            testId: 'anchor-batch-delete',
            confirm: (ctx) => t('anchor.confirmBatchDelete', { count: ctx.selectedKeys.length }),
            run: (ctx) => call('/Scene/DeleteBeaconsInfo', { BeaconIds: ctx.selectedKeys.map(Number) }).then(refusalsAsError),
            success: t('deleted'),
            invalidate: [SCENE_KEY],
          },
        ]}
        actionsColumn={{ title: t('actions'), width: 200, fixed: 'right' }}
        rowActions={rowActions}
        columns={[
          { key: 'Name', title: t('anchor.name'), dataIndex: 'Name', width: 140, fixed: 'left', onCell: userDataCell },
          { key: 'Mac', title: t('anchor.mac'), dataIndex: 'Mac', width: 160 },
          { key: 'Code', title: t('anchor.code'), dataIndex: 'Code', width: 200, ellipsis: true },
          { key: 'Major', title: t('anchor.major'), dataIndex: 'Major', width: 80 },
          { key: 'Minor', title: t('anchor.minor'), dataIndex: 'Minor', width: 80 },
          { key: 'Type', title: t('anchor.type'), render: (_, a) => <Tag color={ANCHOR_COLOURS[a.Type]}>{anchorTypeName(t, a.Type)}</Tag>, width: 120 },
          {
            key: 'State',
            title: t('anchor.state'),
            render: (_, a) => <Tag color={a.State === 1 ? 'green' : 'default'}>{anchorStateName(t, a.State)}</Tag>,
            width: 80,
          },
          { key: 'X', title: t('anchor.x'), render: (_, a) => a.X.toFixed(2), width: 80 },
          { key: 'Y', title: t('anchor.y'), render: (_, a) => a.Y.toFixed(2), width: 80 },
          { key: 'Height', title: t('anchor.height'), render: (_, a) => a.Height.toFixed(2), width: 80 },
          ...(aoa ? [{ key: 'Heading', title: t('anchor.heading'), render: (_: unknown, a: Anchor) => `${a.Heading.toFixed(1)}°`, width: 90 }] : []),
          { key: 'Rssi1m', title: t('anchor.rssi1m'), render: (_, a) => `${a.Rssi1m} dBm`, width: 110 },
        ]}
      >
        <AnchorDialog editing={editing} aoaOnly={aoa} onClose={() => setEditing(null)} />
        <AnchorBatchDialog
          ids={batch?.ids ?? null}
          onClose={() => setBatch(null)}
          onDone={() => batch?.clear()}
        />
      </ListPage>
    </Space>
  );
}
