// The alarm's life on the records page: its state as a tag, resolving with a cause and a note,
// assigning to an account of its account's line, commenting, and its timeline in a drawer (times
// as the server answers them: in the viewer's zone).
import { Drawer, Empty, Input, Select, Skeleton, Tag, Timeline, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ALARM_RESOLVE_CAUSES,
  assignAlarmRequest,
  commentAlarmRequest,
  resolveAlarmRequest,
  type AlarmEvent,
  type AlarmRecord,
  type AlarmState,
} from '@wt/contract';
import { call } from '../../api/client';
import { FormDialog } from '../../patterns';
import { ALARM_KEY } from './queries';

const STATE_COLORS: Record<AlarmState, string> = {
  open: 'red',
  acknowledged: 'orange',
  resolved: 'green',
  cleared: 'blue',
  clearedUnacknowledged: 'purple',
};

export function AlarmStateTag({ state }: { state: AlarmState }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATE_COLORS[state]} data-testid="alarm-state">
      {t(`alarm:life.state.${state}`)}
    </Tag>
  );
}

const RECORDS_KEY = [...ALARM_KEY, 'records'] as const;

export function ResolveAlarmDialog({ alarm, onClose }: { alarm: AlarmRecord | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <FormDialog<{ Id: number; Cause: string; Note: string }>
      open={alarm !== null}
      title={t('alarm:life.resolveTitle')}
      schema={resolveAlarmRequest}
      initial={{ Id: alarm?.Id, Cause: undefined, Note: '' }}
      submit={(v) => call('/AlarmRecord/Resolve', { Id: v.Id, Cause: v.Cause as (typeof ALARM_RESOLVE_CAUSES)[number], Note: (v.Note ?? '').trim() })}
      successMessage={t('alarm:life.resolved')}
      invalidate={[RECORDS_KEY]}
      onClose={onClose}
      okText={t('alarm:life.resolve')}
      fields={[
        {
          name: 'Cause',
          label: t('alarm:life.cause'),
          required: true,
          input: <Select data-testid="resolve-cause" options={ALARM_RESOLVE_CAUSES.map((c) => ({ value: c, label: t(`alarm:life.causes.${c}`) }))} />,
        },
        { name: 'Note', label: t('alarm:life.note'), input: <Input.TextArea rows={3} maxLength={500} data-testid="resolve-note" /> },
      ]}
    />
  );
}

export function AssignAlarmDialog({ alarm, onClose }: { alarm: AlarmRecord | null; onClose: () => void }) {
  const { t } = useTranslation();
  const options = useQuery({
    queryKey: [...ALARM_KEY, 'assignees', alarm?.Id],
    queryFn: async () => (await call('/AlarmRecord/Assignees', { Id: alarm!.Id })).Items,
    enabled: alarm !== null,
  });
  return (
    <FormDialog<{ Id: number; AssigneeId: number | null }>
      open={alarm !== null}
      title={t('alarm:life.assignTitle')}
      schema={assignAlarmRequest}
      initial={{ Id: alarm?.Id, AssigneeId: alarm?.AssigneeId ?? null }}
      transform={(v) => ({ ...v, AssigneeId: v.AssigneeId ?? null })}
      submit={(v) => call('/AlarmRecord/Assign', { Id: v.Id, AssigneeId: v.AssigneeId })}
      successMessage={t('alarm:life.assigned')}
      invalidate={[RECORDS_KEY]}
      onClose={onClose}
      okText={t('alarm:life.assign')}
      fields={[
        {
          name: 'AssigneeId',
          label: t('alarm:life.assignee'),
          input: (
            <Select
              allowClear
              loading={options.isLoading}
              placeholder={t('alarm:life.nobody')}
              data-testid="assign-to"
              options={(options.data ?? []).map((u) => ({ value: u.Id, label: u.Name }))}
            />
          ),
        },
      ]}
    />
  );
}

export function CommentAlarmDialog({ alarm, onClose }: { alarm: AlarmRecord | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <FormDialog<{ Id: number; Text: string }>
      open={alarm !== null}
      title={t('alarm:life.commentTitle')}
      schema={commentAlarmRequest}
      initial={{ Id: alarm?.Id, Text: '' }}
      submit={(v) => call('/AlarmRecord/Comment', { Id: v.Id, Text: v.Text })}
      successMessage={t('alarm:life.commented')}
      invalidate={[[...ALARM_KEY, 'timeline']]}
      onClose={onClose}
      okText={t('alarm:life.comment')}
      fields={[{ name: 'Text', label: t('alarm:life.commentText'), required: true, input: <Input.TextArea rows={3} maxLength={500} data-testid="comment-text" /> }]}
    />
  );
}

/** One event of a timeline in the reader's language. */
export function useEventText() {
  const { t } = useTranslation();
  return (e: AlarmEvent): { title: string; detail?: string } => {
    const p = e.Params as Record<string, unknown>;
    switch (e.Kind) {
      case 'repeated':
        return { title: t('alarm:life.kind.repeated', { count: Number(p.count ?? 0) }) };
      case 'acknowledged':
        return { title: t('alarm:life.kind.acknowledged'), detail: typeof p.note === 'string' ? p.note : undefined };
      case 'assigned':
        return { title: p.assignee ? t('alarm:life.kind.assigned', { assignee: String(p.assignee) }) : t('alarm:life.kind.unassigned') };
      case 'comment':
        return { title: t('alarm:life.kind.comment'), detail: String(p.text ?? '') };
      case 'resolved':
        return {
          title: t('alarm:life.kind.resolved', { cause: t(`alarm:life.causes.${String(p.cause)}`, { defaultValue: String(p.cause ?? '') }) }),
          detail: typeof p.note === 'string' ? p.note : undefined,
        };
      case 'cleared':
        return { title: t('alarm:life.kind.cleared', { reason: t(`alarm:life.reasons.${String(p.reason)}`, { defaultValue: String(p.reason ?? '') }) }) };
      case 'escalated': {
        // One send of an escalation step: a partner push names how many partners took it.
        const channel = String(p.channel ?? '');
        const recipient = channel === 'push' ? t('alarm:escalation.send.partners', { count: Number(p.recipient ?? 0) }) : String(p.recipient ?? '');
        const status = t(`alarm:escalation.send.${String(p.status)}`, { defaultValue: String(p.status ?? '') });
        const reason = p.status === 'failed' && typeof p.error === 'string' && p.error ? t(`messages:${p.error}`, { defaultValue: p.error }) : '';
        return {
          title: t('alarm:escalation.send.title', { step: Number(p.step ?? 0), channel: t(`alarm:escalation.channel.${channel}`, { defaultValue: channel }), recipient }),
          detail: reason ? `${status}: ${reason}` : status,
        };
      }
      case 'raised':
      case 'notified':
        return { title: t(`alarm:life.kind.${e.Kind}`) };
      default:
        return { title: e.Kind };
    }
  };
}

function eventColor(e: AlarmEvent): string {
  if (e.Kind === 'escalated') return e.Params.status === 'sent' ? 'blue' : e.Params.status === 'held' ? 'gray' : 'red';
  return e.Kind === 'resolved' || e.Kind === 'cleared' ? 'green' : e.Kind === 'raised' || e.Kind === 'repeated' ? 'red' : 'blue';
}

/** The events of one alarm, oldest first: when, who (or the platform), what. */
export function AlarmTimelineList({ events }: { events: AlarmEvent[] }) {
  const { t } = useTranslation();
  const text = useEventText();
  if (!events.length) return <Empty description={t('alarm:life.noEvents')} />;
  return (
    <Timeline
      data-testid="alarm-timeline"
      items={events.map((e) => {
        const { title, detail } = text(e);
        return {
          // Events and escalation sends are numbered apart.
          key: `${e.Kind === 'escalated' ? 'send' : 'event'}-${e.Id}`,
          color: eventColor(e),
          content: (
            <div data-testid="alarm-event">
              <Typography.Text strong>{title}</Typography.Text>
              <div>
                <Typography.Text type="secondary">
                  {e.At} · {e.Actor ?? t('alarm:life.platform')}
                </Typography.Text>
              </div>
              {detail ? <Typography.Paragraph style={{ marginBottom: 0 }}>{detail}</Typography.Paragraph> : null}
            </div>
          ),
        };
      })}
    />
  );
}

export function AlarmTimelineDrawer({ alarm, onClose }: { alarm: AlarmRecord | null; onClose: () => void }) {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: [...ALARM_KEY, 'timeline', alarm?.Id],
    queryFn: async () => (await call('/AlarmRecord/Timeline', { Id: alarm!.Id })).Items,
    enabled: alarm !== null,
  });
  return (
    <Drawer open={alarm !== null} onClose={onClose} title={t('alarm:life.timelineTitle', { id: alarm?.Id ?? '' })} width={420} destroyOnHidden>
      {q.isLoading ? <Skeleton active /> : <AlarmTimelineList events={q.data ?? []} />}
    </Drawer>
  );
}
