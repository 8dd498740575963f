// A scene's map (/scene/scenemap?id=, opened from the scene list): the scene's SVG map with zoom
// and pan, its details, and its floors with the way to each floor's plan and anchors. The SVG is
// user content: it is shown as an <img> (scripts and links inert), never put into the page.
import { useEffect, useState } from 'react';
import { Button, Card, Col, Descriptions, Empty, List, Row, Space, Tag, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { shownTime } from '../../session/time';
import { PlanView } from '../../indoor/PlanView';
import { SceneSelect } from './SceneSelect';
import { USER_DATA } from '../../i18n/texts';
import { beaconTypeName, floorTypeName, idParam, methodName, useSceneDetail } from './queries';

/** An SVG without a size of its own is shown at this size (its aspect kept by the browser). */
const FALLBACK_SIZE = { width: 1200, height: 800 };

/** The natural pixel size of an image URL, once it has loaded. */
function useImageSize(url: string | null | undefined) {
  const [size, setSize] = useState<{ url: string; width: number; height: number } | null>(null);
  useEffect(() => {
    if (!url) return;
    const img = new Image();
    img.onload = () =>
      setSize({
        url,
        width: img.naturalWidth || FALLBACK_SIZE.width,
        height: img.naturalHeight || FALLBACK_SIZE.height,
      });
    img.onerror = () => setSize({ url, ...FALLBACK_SIZE });
    img.src = url;
  }, [url]);
  return size && size.url === url ? size : null;
}

export default function SceneMapPage() {
  const { t } = useTranslation('scene');
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const sceneId = idParam(params.get('id'));
  const detail = useSceneDetail(sceneId);
  const s = detail.data;
  const size = useImageSize(s?.MapUrl);

  const picker = (
    <SceneSelect value={sceneId} onChange={(id, o) => setParams({ id: String(id) }, o)} testId="scene-map-select" />
  );
  if (!sceneId)
    return (
      <Card title={t('sceneMap.title')}>
        <Space orientation="vertical">
          <Typography.Text>{t('pickScene')}</Typography.Text>
          {picker}
        </Space>
      </Card>
    );

  return (
    <Card
      loading={detail.isLoading}
      title={
        <Space>
          <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => navigate('/scene/sencelist')} aria-label={t('back')} />
          {s ? <span {...USER_DATA}>{s.Name}</span> : t('sceneMap.title')}
        </Space>
      }
      extra={picker}
    >
      {detail.isError ? (
        <Empty description={t('messages:scene.notFound')} />
      ) : s ? (
        <Row gutter={16}>
          <Col xs={24} xl={16}>
            <div style={{ height: 560 }} data-testid="scene-map-view">
              <PlanView
                planUrl={s.MapUrl}
                width={size?.width ?? FALLBACK_SIZE.width}
                height={size?.height ?? FALLBACK_SIZE.height}
                metresPerPixel={null}
                testId="scene-map-plan"
              />
            </div>
          </Col>
          <Col xs={24} xl={8}>
            <Descriptions column={1} size="small" bordered data-testid="scene-details">
              <Descriptions.Item label={t('scene.owner')}>
                <span {...USER_DATA}>{s.OwnerLoginName}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('scene.address')}>
                <span {...USER_DATA}>{s.Address}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('sceneMap.location')}>
                {s.Lat.toFixed(6)}, {s.Lon.toFixed(6)}
              </Descriptions.Item>
              <Descriptions.Item label={t('scene.beaconType')}>{beaconTypeName(t, s.BeaconType)}</Descriptions.Item>
              <Descriptions.Item label={t('scene.method')}>{methodName(t, s.Method)}</Descriptions.Item>
              <Descriptions.Item label={t('scene.enabled')}>
                {s.Enabled ? <Tag color="green">{t('list.enabled')}</Tag> : <Tag>{t('list.disabled')}</Tag>}
              </Descriptions.Item>
              <Descriptions.Item label={t('list.anchorCount')}>{s.Anchors.length}</Descriptions.Item>
              <Descriptions.Item label={t('createdAt')}>{shownTime(s.CreatedAt)}</Descriptions.Item>
            </Descriptions>
            <Typography.Title level={5} style={{ marginTop: 16 }}>
              {t('sceneMap.floors', { count: s.Floors.length })}
            </Typography.Title>
            <List
              data-testid="scene-floor-list"
              locale={{ emptyText: <Empty description={t('sceneMap.noFloors')} /> }}
              dataSource={[...s.Floors].sort((a, b) => a.FloorNo - b.FloorNo)}
              renderItem={(f) => (
                <List.Item
                  key={f.FloorId}
                  actions={[
                    <Link key="plan" to={`/scene/floors?scene=${s.SceneId}`}>
                      {t('list.floors')}
                    </Link>,
                    <Link key="beacons" to={`/scene/beacons?scene=${s.SceneId}&floor=${f.FloorId}`} data-testid={`scene-floor-beacons-${f.FloorId}`}>
                      {t('list.beacons')}
                    </Link>,
                  ]}
                >
                  <List.Item.Meta
                    avatar={
                      f.PlanUrl ? (
                        <img src={f.PlanUrl} alt="" style={{ width: 64, height: 48, objectFit: 'contain', background: '#fafafa' }} />
                      ) : null
                    }
                    title={<span {...USER_DATA}>{t('floor.label', { no: f.FloorNo, name: f.Name })}</span>}
                    description={`${floorTypeName(t, f.Type)} · ${t('floor.anchorsCount', { count: f.AnchorCount })}`}
                  />
                </List.Item>
              )}
            />
            <Button style={{ marginTop: 8 }} onClick={() => navigate(`/scene/floors?scene=${s.SceneId}`)} data-testid="scene-map-floors">
              {t('sceneMap.manageFloors')}
            </Button>
          </Col>
        </Row>
      ) : null}
    </Card>
  );
}
