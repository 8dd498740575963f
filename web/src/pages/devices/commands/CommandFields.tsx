// The inputs of one command kind. Rules are not repeated here: the whole form is checked with the
// contract's validateCommand on submit and its messages land on these fields (commandForms.ts).
import { Button, Form, Input, InputNumber, Select, Space, Switch, TimePicker } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LIMITS, type CommandCode } from '@wt/contract';
import { BLOOD_PRESSURE_PAIRS, FALL_HEIGHT_OPTIONS, THRESHOLD_OF } from '../commandForms';

const TIME = 'HH:mm';

function TimeRange({ prefix }: { prefix: (string | number)[] }) {
  const { t } = useTranslation();
  return (
    <Space align="start">
      <Form.Item name={[...prefix, 'start']} label={t('commands:field.start')}>
        <TimePicker format={TIME} />
      </Form.Item>
      <Form.Item name={[...prefix, 'end']} label={t('commands:field.end')}>
        <TimePicker format={TIME} />
      </Form.Item>
    </Space>
  );
}

export function CommandFields({ code }: { code: CommandCode }) {
  const { t } = useTranslation();
  const threshold = THRESHOLD_OF[code];
  if (threshold) {
    const range = `${threshold.min} – ${threshold.max}`;
    return (
      <>
        <Form.Item name="min" label={t('commands:field.min')} extra={t('commands:hint.threshold', { range })}>
          <InputNumber step={threshold.step} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="max" label={t('commands:field.max')}>
          <InputNumber step={threshold.step} style={{ width: 200 }} />
        </Form.Item>
      </>
    );
  }
  if (code === 'BLOOD_PRESSURE_THRESHOLD') {
    return (
      <>
        {BLOOD_PRESSURE_PAIRS.map((pair) => (
          <Space key={pair.min} align="start">
            <Form.Item name={pair.min} label={t(`commands:field.${pair.min}`)} extra={t('commands:hint.threshold', { range: `${pair.range.min} – ${pair.range.max}` })}>
              <InputNumber step={1} style={{ width: 160 }} data-testid={`cmd-${pair.min}`} />
            </Form.Item>
            <Form.Item name={pair.max} label={t(`commands:field.${pair.max}`)}>
              <InputNumber step={1} style={{ width: 160 }} data-testid={`cmd-${pair.max}`} />
            </Form.Item>
          </Space>
        ))}
      </>
    );
  }
  switch (code) {
    case 'UPLOAD':
      return (
        <Form.Item name="interval" label={t('commands:field.intervalMinutes')} extra={t('commands:hint.interval', { min: LIMITS.intervalMin, max: LIMITS.intervalMax })}>
          <InputNumber style={{ width: 200 }} data-testid="cmd-interval" />
        </Form.Item>
      );
    case 'HEART_RATE':
    case 'BLOOD_PRESSURE':
    case 'TEMPERATURE':
    case 'BLOOD_OXYGEN':
      return (
        <Form.Item name="interval" label={t('commands:field.measureMinutes')}>
          <InputNumber style={{ width: 200 }} />
        </Form.Item>
      );
    case 'SOS':
      return (
        <>
          {(['sos1', 'sos2', 'sos3'] as const).map((n, i) => (
            <Form.Item key={n} name={n} label={t('commands:field.sos', { n: i + 1 })} required={i === 0}>
              <Input maxLength={20} />
            </Form.Item>
          ))}
        </>
      );
    case 'CENTER':
      return (
        <Form.Item name="number" label={t('commands:field.centerNumber')} required>
          <Input maxLength={20} />
        </Form.Item>
      );
    case 'MESSAGE':
    case 'CUSTOM':
      return (
        <Form.Item name="text" label={t(code === 'MESSAGE' ? 'commands:field.message' : 'commands:field.custom')} required>
          <Input.TextArea rows={3} maxLength={200} showCount />
        </Form.Item>
      );
    case 'WEATHER':
      return (
        <>
          <Form.Item name="date" label={t('commands:field.weatherDate')} required>
            <Input placeholder="2026-01-31" maxLength={10} style={{ width: 200 }} />
          </Form.Item>
          <Form.Item name="code" label={t('commands:field.weatherCode')} required extra={t('commands:field.weatherCodeHint')}>
            <InputNumber min={0} max={99} precision={0} style={{ width: 200 }} />
          </Form.Item>
          <Form.Item name="min" label={t('commands:field.weatherMin')} required>
            <InputNumber min={-90} max={60} style={{ width: 200 }} />
          </Form.Item>
          <Form.Item name="max" label={t('commands:field.weatherMax')} required>
            <InputNumber min={-90} max={60} style={{ width: 200 }} />
          </Form.Item>
          <Form.Item name="text" label={t('commands:field.weatherText')}>
            <Input maxLength={40} />
          </Form.Item>
        </>
      );
    case 'REMOVE':
    case 'LOWBAT':
      return (
        <Form.Item name="enabled" label={t('commands:field.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
      );
    case 'LZ':
      return (
        <>
          <Form.Item name="language" label={t('commands:field.language')}>
            <Select style={{ width: 200 }} options={[0, 1].map((v) => ({ value: v, label: t(`commands:languages.${v}`) }))} />
          </Form.Item>
          <Form.Item name="timezone" label={t('commands:field.timezone')}>
            <InputNumber min={-12} max={14} step={0.5} style={{ width: 200 }} />
          </Form.Item>
        </>
      );
    case 'FALL_HEIGHT':
      return (
        <Form.Item name="height" label={t('commands:field.fallHeight')} required>
          <Select style={{ width: 200 }} options={FALL_HEIGHT_OPTIONS} />
        </Form.Item>
      );
    case 'IP':
      return (
        <>
          <Form.Item name="host" label={t('commands:field.host')} required>
            <Input placeholder="192.168.1.10 / example.com" />
          </Form.Item>
          <Form.Item name="port" label={t('commands:field.port')} required>
            <InputNumber style={{ width: 200 }} />
          </Form.Item>
        </>
      );
    case 'VIBRATION':
      return (
        <Form.Item name="seconds" label={t('commands:field.vibrationSeconds')} required>
          <InputNumber style={{ width: 200 }} />
        </Form.Item>
      );
    case 'WORK_TIME':
      return (
        <>
          <div className="cmd-subtitle">{t('commands:field.am')}</div>
          <TimeRange prefix={['am']} />
          <div className="cmd-subtitle">{t('commands:field.pm')}</div>
          <TimeRange prefix={['pm']} />
        </>
      );
    case 'SILENCETIME':
      return (
        <Form.List name="periods">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f) => (
                <Space key={f.key} align="baseline">
                  <TimeRange prefix={[f.name]} />
                  {fields.length > 1 ? <MinusCircleOutlined onClick={() => remove(f.name)} aria-label={t('commands:remove')} /> : null}
                </Space>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({})} disabled={fields.length >= 4}>
                {t('commands:addPeriod')}
              </Button>
            </>
          )}
        </Form.List>
      );
    case 'REMIND':
      return (
        <Form.List name="reminders">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f) => (
                <Space key={f.key} align="baseline">
                  <Form.Item name={[f.name, 'time']} label={t('commands:field.time')}>
                    <TimePicker format={TIME} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'kind']} label={t('commands:field.remindKind')}>
                    <Select style={{ width: 140 }} options={[1, 2, 3].map((v) => ({ value: v, label: t(`commands:remindKinds.${v}`) }))} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'enabled']} valuePropName="checked">
                    <Switch />
                  </Form.Item>
                  {fields.length > 1 ? <MinusCircleOutlined onClick={() => remove(f.name)} aria-label={t('commands:remove')} /> : null}
                </Space>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ enabled: true, kind: 1 })} disabled={fields.length >= 3}>
                {t('commands:addReminder')}
              </Button>
            </>
          )}
        </Form.List>
      );
    default:
      return null;
  }
}
