// The card of the tag clicked on the inner map (or found by the search): who it is, its status and
// how its latest indoor position was computed, with a button opening its indoor history.
import { Button, Card, Descriptions, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { shownTime } from '../../../session/time';
import type { IndoorTag } from '../../../indoor/live/indoorStore';
import { USER_DATA } from '../../../i18n/texts';

export function TagCard({ tag, floorName, onClose, onHistory }: { tag: IndoorTag; floorName: string | undefined; onClose: () => void; onHistory: () => void }) {
  const { t } = useTranslation('innerMap');
  const none = t('card.none');
  return (
    <Card
      size="small"
      className="wt-device-card wt-tag-card"
      data-testid="tag-card"
      data-device={tag.id}
      title={<span {...USER_DATA}>{tag.name || tag.imei}</span>}
      extra={<a onClick={onClose}>{t('card.close')}</a>}
    >
      <Descriptions size="small" column={2}>
        <Descriptions.Item label={t('card.name')} span={2}>
          <span {...USER_DATA}>{tag.name || none}</span>
        </Descriptions.Item>
        <Descriptions.Item label="IMEI" span={2}>
          <span data-testid="tag-card-imei">{tag.imei || none}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('card.status')}>
          {tag.sos ? (
            <Tag color="red" data-testid="tag-card-sos">
              {t('legend.sos')}
            </Tag>
          ) : (
            <Tag color={tag.online ? 'green' : 'default'}>{t(tag.online ? 'legend.online' : 'legend.offline')}</Tag>
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('card.battery')}>{tag.battery === null ? none : `${tag.battery}%`}</Descriptions.Item>
        <Descriptions.Item label={t('card.method')}>{tag.method ? t(`method.${tag.method}`) : none}</Descriptions.Item>
        <Descriptions.Item label={t('card.accuracy')}>{tag.accuracy === null ? none : t('card.metres', { value: tag.accuracy.toFixed(1) })}</Descriptions.Item>
        <Descriptions.Item label={t('card.floor')} span={2}>
          {tag.indoor ? <span {...USER_DATA}>{floorName ?? none}</span> : t('card.outdoors')}
        </Descriptions.Item>
        <Descriptions.Item label={t('card.position')} span={2}>
          <span data-testid="tag-card-position">{tag.indoor ? t('card.xy', { x: tag.x.toFixed(1), y: tag.y.toFixed(1) }) : none}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('card.fixTime')} span={2}>
          {tag.fixTime === null ? none : shownTime(tag.fixTime)}
        </Descriptions.Item>
        <Descriptions.Item label={t('card.lastSeen')} span={2}>
          {tag.lastSeen === null ? none : shownTime(tag.lastSeen)}
        </Descriptions.Item>
      </Descriptions>
      <Button type="primary" size="small" onClick={onHistory} data-testid="tag-history">
        {t('card.history')}
      </Button>
    </Card>
  );
}
