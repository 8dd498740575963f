// The anchor dialogs: add or edit one anchor (name, MAC, code of at least 14 digits, major, minor,
// type, state, position on the plan in metres, height, heading for an AOA locator, RSSI at 1 m),
// and change the state, height or RSSI at 1 m of several at once (fields left empty are kept).
// Both are checked with the contract's schemas before anything is sent.
import { Col, Form, Input, InputNumber, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { scene, type CallResponse } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { FormDialog } from '../../patterns';
import { SCENE_KEY, anchorStateName, anchorTypeName, options, type Anchor } from './queries';

type AddValues = z.input<typeof scene.addAnchorRequest>;
type EditValues = z.input<typeof scene.editAnchorRequest>;
type BatchValues = z.input<typeof scene.editAnchorsBatchRequest>;

/** An anchor as the edit call takes it: every field as stored. */
export function anchorEditValues(a: Anchor): EditValues {
  return {
    BeaconId: a.BeaconId,
    FloorId: a.FloorId,
    Name: a.Name,
    Mac: a.Mac,
    Code: a.Code,
    Major: a.Major,
    Minor: a.Minor,
    Type: a.Type as EditValues['Type'],
    State: a.State as EditValues['State'],
    X: a.X,
    Y: a.Y,
    Height: a.Height,
    Heading: a.Heading,
    Rssi1m: a.Rssi1m,
  };
}

/** What the add dialog opens with: where it was clicked, and the page's type. */
export interface AnchorDraft {
  FloorId: number;
  X: number;
  Y: number;
  Type: 1 | 2 | 3;
}

export function AnchorDialog({
  editing,
  aoaOnly,
  onClose,
}: {
  /** `item` to edit, or `draft` to add. */
  editing: { item: Anchor } | { draft: AnchorDraft } | null;
  /** The AOA page: the type is an AOA locator. */
  aoaOnly: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('scene');
  const item = editing && 'item' in editing ? editing.item : null;
  const draft = editing && 'draft' in editing ? editing.draft : null;
  const num = (name: keyof EditValues, label: string, props: { min?: number; max?: number; step?: number; precision?: number; addonAfter?: string }) => (
    <Form.Item name={name} label={label} required>
      <InputNumber style={{ width: '100%' }} {...props} data-testid={`anchor-${name.toLowerCase()}`} />
    </Form.Item>
  );
  return (
    <FormDialog<AddValues | EditValues>
      open={editing !== null}
      width={720}
      title={t(item ? 'anchor.edit' : 'anchor.add')}
      schema={item ? scene.editAnchorRequest : scene.addAnchorRequest}
      testId="anchor-form"
      initial={
        item
          ? anchorEditValues(item)
          : draft
            ? { FloorId: draft.FloorId, X: draft.X, Y: draft.Y, Type: draft.Type, State: 1, Major: 0, Minor: 0, Height: 2.5, Heading: 0, Rssi1m: -59 }
            : {}
      }
      transform={(v) => ({ ...v, Mac: typeof v.Mac === 'string' ? v.Mac.toUpperCase() : v.Mac })}
      submit={(v) => (item ? call('/Scene/editBeaconsInfo', v as EditValues) : call('/Scene/addBeaconsInfoByMonitor', v as AddValues))}
      invalidate={[SCENE_KEY]}
      onClose={onClose}
      fields={
        <>
          <Row gutter={12}>
            <Col span={12}>
              <Form.Item name="Name" label={t('anchor.name')} required>
                <Input maxLength={64} data-testid="anchor-name" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="Mac" label={t('anchor.mac')} required>
                <Input maxLength={17} placeholder="AC:23:3F:A0:00:01" data-testid="anchor-mac" />
              </Form.Item>
            </Col>
          </Row>
          <Row gutter={12}>
            <Col span={12}>
              <Form.Item name="Code" label={t('anchor.code')} required extra={t('anchor.codeHint')}>
                <Input maxLength={64} data-testid="anchor-code" />
              </Form.Item>
            </Col>
            <Col span={6}>{num('Major', t('anchor.major'), { min: 0, max: 65535, precision: 0 })}</Col>
            <Col span={6}>{num('Minor', t('anchor.minor'), { min: 0, max: 65535, precision: 0 })}</Col>
          </Row>
          <Row gutter={12}>
            <Col span={12}>
              <Form.Item name="Type" label={t('anchor.type')} required>
                <Select
                  disabled={aoaOnly}
                  options={options(scene.ANCHOR_TYPES, (v) => anchorTypeName(t, v))}
                  data-testid="anchor-type"
                />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="State" label={t('anchor.state')} required>
                <Select options={options(scene.ANCHOR_STATES, (v) => anchorStateName(t, v))} data-testid="anchor-state" />
              </Form.Item>
            </Col>
          </Row>
          <Row gutter={12}>
            <Col span={6}>{num('X', t('anchor.x'), { step: 0.1, precision: 2, addonAfter: 'm' })}</Col>
            <Col span={6}>{num('Y', t('anchor.y'), { step: 0.1, precision: 2, addonAfter: 'm' })}</Col>
            <Col span={6}>{num('Height', t('anchor.height'), { min: -50, max: 200, step: 0.1, addonAfter: 'm' })}</Col>
            <Col span={6}>{num('Rssi1m', t('anchor.rssi1m'), { min: -120, max: 0, step: 1, addonAfter: 'dBm' })}</Col>
          </Row>
          <Form.Item noStyle shouldUpdate={(a: { Type?: number }, b: { Type?: number }) => a.Type !== b.Type}>
            {({ getFieldValue }) =>
              getFieldValue('Type') === 3 ? (
                <Row gutter={12}>
                  <Col span={12}>
                    <Form.Item name="Heading" label={t('anchor.heading')} extra={t('anchor.headingHint')} required>
                      <InputNumber style={{ width: '100%' }} min={-360} max={360} step={1} addonAfter="°" data-testid="anchor-heading" />
                    </Form.Item>
                  </Col>
                </Row>
              ) : null
            }
          </Form.Item>
        </>
      }
    />
  );
}

export function AnchorBatchDialog({ ids, onClose, onDone }: { ids: number[] | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('scene');
  return (
    <FormDialog<BatchValues, CallResponse<'/Scene/editBeaconsBatchInfo'>>
      open={ids !== null}
      title={t('anchor.batchEdit', { count: ids?.length ?? 0 })}
      schema={scene.editAnchorsBatchRequest}
      testId="anchor-batch-form"
      initial={{ BeaconIds: ids ?? [] }}
      // Fields left empty are not sent: the anchors keep their values.
      transform={(v) => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== undefined && x !== '')) as BatchValues}
      submit={(v) => call('/Scene/editBeaconsBatchInfo', v)}
      successMessage={(r) => t('anchor.batchSaved', { count: r.Succeeded })}
      invalidate={[SCENE_KEY]}
      onClose={onClose}
      onDone={onDone}
      header={<p>{t('anchor.batchHint')}</p>}
      fields={[
        {
          name: 'State',
          label: t('anchor.state'),
          input: <Select allowClear options={options(scene.ANCHOR_STATES, (v) => anchorStateName(t, v))} data-testid="anchor-batch-state" />,
        },
        {
          name: 'Height',
          label: t('anchor.height'),
          input: <InputNumber style={{ width: '100%' }} min={-50} max={200} step={0.1} addonAfter="m" data-testid="anchor-batch-height" />,
        },
        {
          name: 'Rssi1m',
          label: t('anchor.rssi1m'),
          input: <InputNumber style={{ width: '100%' }} min={-120} max={0} step={1} addonAfter="dBm" data-testid="anchor-batch-rssi" />,
        },
      ]}
    />
  );
}
