// The row actions the three catalogue pages (models, protocols, commands) share: edit, and delete
// after a confirmation naming the item. A change to one of them shows in the others (a protocol's
// commands, a model's protocol): every catalogue list is asked again.
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import type { ColumnType } from 'antd/es/table';
import { shownTime } from '../../session/time';
import type { RowAction, SearchSpec } from '../../patterns';

export const CATALOGUE_KEY = ['model'] as const;

export function catalogueActions(
  t: TFunction,
  item: { name: string; onEdit: () => void; remove: () => Promise<unknown>; /** False when the user's set cannot change it. */ visible?: boolean },
): RowAction[] {
  return [
    { key: 'edit', label: t('model:edit'), icon: <EditOutlined />, onClick: item.onEdit, visible: item.visible },
    {
      key: 'delete',
      visible: item.visible,
      label: t('model:delete'),
      icon: <DeleteOutlined />,
      danger: true,
      confirm: t('model:confirmDelete', { name: item.name }),
      run: item.remove,
      success: t('messages:device.deleted'),
      invalidate: [CATALOGUE_KEY],
    },
  ];
}

/** The search of the model and command lists: by protocol and by a keyword. */
export function catalogueSearch(
  t: TFunction,
  protocols: { options: { value: number; label: string }[]; loading: boolean },
): SearchSpec[] {
  return [
    {
      type: 'select',
      name: 'ProtocolId',
      label: t('model:protocol.title'),
      options: protocols.options,
      loading: protocols.loading,
    },
    { type: 'text', name: 'Keyword', label: t('model:keyword') },
  ];
}

/** The creation time column of the catalogue lists. */
export function createdAtColumn<Row extends { CreatedAt: string }>(t: TFunction): ColumnType<Row> {
  return {
    key: 'CreatedAt',
    title: t('model:createdAt'),
    render: (_, r) => shownTime(r.CreatedAt),
    width: 170,
  };
}
