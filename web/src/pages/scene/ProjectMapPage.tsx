// Project map (/scene/projectMap): every scene of the caller's subtree on the outdoor map (the
// monitor's MapView in the user's map source), one marker labelled with its name at its location,
// the view framed to hold them all; disabled scenes greyed. A marker or a row of the side list
// (searched by name) opens the scene's card: address, state, beacon type, positioning method,
// floors, anchors and the tags seen in it in the last minutes, with the way to its map and floors.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, Card, Descriptions, Empty, Input, Space, Spin, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Marker, useMap, type MapRef } from 'react-map-gl/maplibre';
import CloseOutlined from '@ant-design/icons/es/icons/CloseOutlined';
import EnvironmentFilled from '@ant-design/icons/es/icons/EnvironmentFilled';
import type { scene } from '@wt/contract';
import { call } from '../../api/client';
import { useMayOpen } from '../../access/can';
import { USER_DATA } from '../../i18n/texts';
import { boundsOf } from '../../map/bounds';
import { MapView } from '../../map/MapView';
import { useMapProjection, type LonLat } from '../../map/projection';
import { SCENE_KEY, beaconTypeName, methodName } from './queries';
import './projectMap.css';

type ProjectScene = scene.ProjectMapScene;

/** The closest the first view goes: one scene alone is shown with its streets around it. */
const FIT_MAX_ZOOM = 15;

function useProjectMap() {
  return useQuery({
    queryKey: [...SCENE_KEY, 'projectMap'],
    queryFn: () => call('/Scene/ProjectMap', {}),
    refetchInterval: 60_000,
  });
}

/** Frames every scene once, when both the map and the scenes are there. */
function FitScenes({ points }: { points: LonLat[] }) {
  const { current } = useMap();
  const fitted = useRef(false);
  useEffect(() => {
    const box = boundsOf(points);
    if (!current || fitted.current || !box) return;
    fitted.current = true;
    current.fitBounds(box, { padding: 80, maxZoom: FIT_MAX_ZOOM, duration: 0 });
  }, [current, points]);
  return null;
}

function SceneCard({ item, minutes, onClose }: { item: ProjectScene; minutes: number; onClose: () => void }) {
  const { t } = useTranslation('scene');
  const navigate = useNavigate();
  const mayOpen = useMayOpen();
  return (
    <Card
      className="wt-project-card"
      size="small"
      data-testid="project-card"
      title={
        <span {...USER_DATA} data-testid="project-card-name">
          {item.Name}
        </span>
      }
      extra={<Button type="text" size="small" icon={<CloseOutlined />} aria-label={t('projectMap.close')} onClick={onClose} />}
    >
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t('scene.address')}>
          <span {...USER_DATA} data-testid="project-card-address">
            {item.Address}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('scene.enabled')}>
          <Tag color={item.Enabled ? 'green' : 'default'} data-testid="project-card-enabled">
            {item.Enabled ? t('list.enabled') : t('list.disabled')}
          </Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t('scene.beaconType')}>{beaconTypeName(t, item.BeaconType)}</Descriptions.Item>
        <Descriptions.Item label={t('scene.method')}>{methodName(t, item.Method)}</Descriptions.Item>
        <Descriptions.Item label={t('list.floorCount')}>
          <span data-testid="project-card-floors">{item.FloorCount}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('list.anchorCount')}>
          <span data-testid="project-card-anchors">{item.AnchorCount}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('projectMap.tags', { minutes })}>
          <span data-testid="project-card-tags">{item.TagCount}</span>
        </Descriptions.Item>
      </Descriptions>
      <Space style={{ marginTop: 8 }}>
        {mayOpen('/scene/scenemap') && (
          <Button type="primary" size="small" data-testid="project-open-map" onClick={() => navigate(`/scene/scenemap?id=${item.SceneId}`)}>
            {t('projectMap.openMap')}
          </Button>
        )}
        {mayOpen('/scene/floors') && (
          <Button size="small" autoInsertSpace={false} data-testid="project-open-floors" onClick={() => navigate(`/scene/floors?scene=${item.SceneId}`)}>
            {t('list.floors')}
          </Button>
        )}
      </Space>
    </Card>
  );
}

export default function ProjectMapPage() {
  const { t } = useTranslation('scene');
  const projection = useMapProjection();
  const data = useProjectMap();
  const items = useMemo(() => data.data?.Items ?? [], [data.data]);
  const [selected, setSelected] = useState<number | null>(null);
  const [search, setSearch] = useState('');
  const map = useRef<MapRef | null>(null);

  const placed = useMemo(() => items.map((s) => ({ item: s, at: projection.toMap([s.Lon, s.Lat]) })), [items, projection]);
  const points = useMemo(() => placed.map((p) => p.at), [placed]);
  const keyword = search.trim().toLowerCase();
  const listed = keyword ? placed.filter((p) => p.item.Name.toLowerCase().includes(keyword)) : placed;
  const chosen = placed.find((p) => p.item.SceneId === selected)?.item;

  const focus = (id: number) => {
    setSelected(id);
    const p = placed.find((x) => x.item.SceneId === id);
    const m = map.current;
    if (p && m) m.flyTo({ center: p.at, zoom: Math.max(m.getZoom(), FIT_MAX_ZOOM), duration: 600 });
  };

  return (
    <div className="wt-project" data-testid="project-map" data-loaded={data.data ? '1' : '0'}>
      <div className="wt-project-panel">
        <Typography.Text strong>{t('projectMap.listTitle', { count: items.length })}</Typography.Text>
        <Input.Search allowClear placeholder={t('projectMap.search')} value={search} onChange={(e) => setSearch(e.target.value)} data-testid="project-search" />
        <div className="wt-project-list" data-testid="project-list">
          {data.isLoading ? (
            <Spin />
          ) : listed.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('projectMap.empty')} />
          ) : (
            listed.map(({ item }) => (
              <div
                key={item.SceneId}
                role="button"
                tabIndex={0}
                className={`wt-project-row${item.SceneId === selected ? ' selected' : ''}${item.Enabled ? '' : ' disabled'}`}
                data-testid={`project-row-${item.SceneId}`}
                onClick={() => focus(item.SceneId)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') focus(item.SceneId);
                }}
              >
                <span className="wt-project-row-name" {...USER_DATA}>
                  {item.Name}
                </span>
                <span className="wt-project-row-meta">
                  {item.Enabled ? null : <Tag style={{ marginRight: 4 }}>{t('list.disabled')}</Tag>}
                  {t('projectMap.rowCounts', { floors: item.FloorCount, anchors: item.AnchorCount })}
                </span>
              </div>
            ))
          )}
        </div>
      </div>
      <div className="wt-project-map">
        <MapView id="project-map" onLoad={(m) => (map.current = m)}>
          <FitScenes points={points} />
          {placed.map(({ item, at }) => (
            <Marker
              key={item.SceneId}
              longitude={at[0]}
              latitude={at[1]}
              anchor="bottom"
              style={{ zIndex: item.SceneId === selected ? 2 : item.Enabled ? 1 : 0 }}
              onClick={(e) => {
                e.originalEvent.stopPropagation();
                setSelected(item.SceneId);
              }}
            >
              <div
                className={`wt-project-marker${item.Enabled ? '' : ' disabled'}${item.SceneId === selected ? ' selected' : ''}`}
                data-testid={`project-marker-${item.SceneId}`}
                data-enabled={item.Enabled ? '1' : '0'}
                title={item.Name}
              >
                <span className="wt-project-label" {...USER_DATA}>
                  {item.Name}
                </span>
                <EnvironmentFilled className="wt-project-pin" />
              </div>
            </Marker>
          ))}
        </MapView>
        {chosen && <SceneCard key={chosen.SceneId} item={chosen} minutes={data.data?.Minutes ?? 10} onClose={() => setSelected(null)} />}
      </div>
    </div>
  );
}
