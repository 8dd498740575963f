// A fence's schedule as one form value (the request's `Schedule`): off means always active; on,
// the days of the week and up to six HH:mm windows. A window that ends at or before its start runs
// past midnight, and says so.
import { Button, Checkbox, Space, Switch, TimePicker, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { accountFence } from '@wt/contract';

export interface ScheduleValue {
  Days: number[];
  Windows: { Start: string; End: string }[];
}

const FORMAT = 'HH:mm';
/** Monday first, as people read a week here; 0 is Sunday. */
const WEEK = [1, 2, 3, 4, 5, 6, 0];
const DEFAULT: ScheduleValue = { Days: [1, 2, 3, 4, 5], Windows: [{ Start: '08:00', End: '18:00' }] };

const toDayjs = (s: string): Dayjs | null => (s ? dayjs(`2000-01-01 ${s}`, 'YYYY-MM-DD HH:mm') : null);

/** True when the window runs past midnight (its end is not after its start). */
export const overnight = (w: { Start: string; End: string }) => !!w.Start && !!w.End && w.End <= w.Start;

export function ScheduleInput({
  value,
  onChange,
}: {
  value?: ScheduleValue | null;
  onChange?: (v: ScheduleValue | null) => void;
}) {
  const { t } = useTranslation('accountFence');
  const on = !!value;
  const windows = value?.Windows ?? [];
  const setWindows = (w: ScheduleValue['Windows']) => onChange?.({ Days: value?.Days ?? [], Windows: w });
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="fence-schedule">
      <Space>
        <Switch
          checked={on}
          onChange={(v) => onChange?.(v ? DEFAULT : null)}
          data-testid="fence-schedule-on"
        />
        <Typography.Text type="secondary">{t(on ? 'schedule.on' : 'schedule.always')}</Typography.Text>
      </Space>
      {on ? (
        <>
          <Checkbox.Group
            value={value.Days}
            onChange={(d) => onChange?.({ Days: d as number[], Windows: windows })}
            options={WEEK.map((d) => ({
              value: d,
              label: <span title={t(`days.${d}`)}>{t(`daysShort.${d}`)}</span>,
            }))}
          />
          {windows.map((w, i) => (
            <Space key={i} data-testid={`fence-window-${i}`} wrap>
              <TimePicker.RangePicker
                format={FORMAT}
                order={false}
                allowClear={false}
                value={[toDayjs(w.Start), toDayjs(w.End)]}
                onChange={(r) => {
                  const next = [...windows];
                  next[i] = { Start: r?.[0]?.format(FORMAT) ?? '', End: r?.[1]?.format(FORMAT) ?? '' };
                  setWindows(next);
                }}
              />
              {overnight(w) ? (
                <Typography.Text type="warning">{t('schedule.overnight')}</Typography.Text>
              ) : null}
              <Button
                type="text"
                icon={<DeleteOutlined />}
                aria-label={t('schedule.removeWindow')}
                disabled={windows.length <= 1}
                onClick={() => setWindows(windows.filter((_, j) => j !== i))}
              />
            </Space>
          ))}
          <Button
            type="dashed"
            icon={<PlusOutlined />}
            disabled={windows.length >= accountFence.MAX_SCHEDULE_WINDOWS}
            onClick={() => setWindows([...windows, { Start: '08:00', End: '12:00' }])}
            data-testid="fence-window-add"
          >
            {t('schedule.addWindow', { max: accountFence.MAX_SCHEDULE_WINDOWS })}
          </Button>
        </>
      ) : null}
    </Space>
  );
}
