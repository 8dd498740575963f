// @vitest-environment jsdom
// An alarm's timeline in the console's language: each event with its time as the server answered it
// (the viewer's zone), who did it or the platform, and what it was (cause, reason, assignee, note).
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import type { AlarmEvent } from '@wt/contract';
import i18n from '../src/i18n';
import { AlarmStateTag, AlarmTimelineList } from '../src/pages/alarm/AlarmLife';
import { polyfillDom } from './dom';

polyfillDom();
afterEach(cleanup);

const events: AlarmEvent[] = [
  { Id: 1, At: '2026-11-27 08:00:00', Kind: 'raised', Actor: null, Params: {} },
  { Id: 2, At: '2026-11-27 08:00:30', Kind: 'repeated', Actor: null, Params: { count: 2 } },
  { Id: 3, At: '2026-11-27 08:01:00', Kind: 'acknowledged', Actor: 'clinic01', Params: { note: 'on my way' } },
  { Id: 4, At: '2026-11-27 08:02:00', Kind: 'assigned', Actor: 'clinic01', Params: { assigneeId: 7, assignee: 'Night shift' } },
  { Id: 5, At: '2026-11-27 08:03:00', Kind: 'comment', Actor: 'agent01', Params: { text: 'called her daughter' } },
  { Id: 6, At: '2026-11-27 08:04:00', Kind: 'cleared', Actor: null, Params: { reason: 'backInside' } },
  { Id: 7, At: '2026-11-27 08:05:00', Kind: 'resolved', Actor: 'agent01', Params: { cause: 'falseAlarm', note: 'pressed by mistake' } },
];

const shown = () => screen.getAllByTestId('alarm-event').map((e) => e.textContent);

describe('alarm timeline', () => {
  it('renders every event in order with its time, who did it and what, in English', async () => {
    await i18n.changeLanguage('en');
    render(<AlarmTimelineList events={events} />);
    expect(shown()).toEqual([
      'Raised2026-11-27 08:00:00 · Platform',
      'Repeated (2 in all)2026-11-27 08:00:30 · Platform',
      'Acknowledged2026-11-27 08:01:00 · clinic01on my way',
      'Assigned to Night shift2026-11-27 08:02:00 · clinic01',
      'Comment2026-11-27 08:03:00 · agent01called her daughter',
      'Cleared: back inside the fence2026-11-27 08:04:00 · Platform',
      'Resolved: False alarm2026-11-27 08:05:00 · agent01pressed by mistake',
    ]);
  });

  it('renders in Traditional Chinese, with an assignment taken back and the cleared-unacknowledged state', async () => {
    await i18n.changeLanguage('zh-TW');
    render(
      <>
        <AlarmTimelineList events={[{ Id: 9, At: '2026-11-27 16:00:00', Kind: 'assigned', Actor: 'agent01', Params: { assignee: null } }]} />
        <AlarmStateTag state="clearedUnacknowledged" />
      </>,
    );
    expect(shown()).toEqual(['取消指派2026-11-27 16:00:00 · agent01']);
    expect(screen.getByTestId('alarm-state').textContent).toBe('已解除，未確認');
  });

  it('shows each escalation send among the events: step, channel, recipient, delivered, held back or failed', async () => {
    await i18n.changeLanguage('en');
    render(
      <AlarmTimelineList
        events={[
          { Id: 1, At: '2026-11-27 08:00:00', Kind: 'raised', Actor: null, Params: {} },
          { Id: 1, At: '2026-11-27 08:00:00', Kind: 'escalated', Actor: null, Params: { step: 1, channel: 'console', recipient: 'clinic01', status: 'sent' } },
          { Id: 2, At: '2026-11-27 08:01:00', Kind: 'escalated', Actor: null, Params: { step: 2, channel: 'sms', recipient: '13800000101', status: 'held', error: 'escalation.quietHours' } },
          { Id: 3, At: '2026-11-27 08:01:00', Kind: 'escalated', Actor: null, Params: { step: 2, channel: 'push', recipient: '0', status: 'failed', error: 'escalation.noPartner' } },
          { Id: 2, At: '2026-11-27 08:02:00', Kind: 'acknowledged', Actor: 'clinic01', Params: {} },
        ]}
      />,
    );
    expect(shown()).toEqual([
      'Raised2026-11-27 08:00:00 · Platform',
      'Escalation step 1: Console to clinic012026-11-27 08:00:00 · PlatformDelivered',
      'Escalation step 2: SMS to 138000001012026-11-27 08:01:00 · PlatformHeld back: quiet hours',
      'Escalation step 2: Partner push to 0 partner companies2026-11-27 08:01:00 · PlatformFailed: No partner company takes this alarm',
      'Acknowledged2026-11-27 08:02:00 · clinic01',
    ]);
    cleanup();
    await i18n.changeLanguage('zh-CN');
    render(<AlarmTimelineList events={[{ Id: 2, At: '2026-11-27 16:01:00', Kind: 'escalated', Actor: null, Params: { step: 2, channel: 'sms', recipient: '13800000101', status: 'held' } }]} />);
    expect(shown()).toEqual(['升级第 2 步：短信发给138000001012026-11-27 16:01:00 · 平台未发送：免打扰时段']);
  });

  it('says so when nothing was recorded', async () => {
    await i18n.changeLanguage('en');
    render(<AlarmTimelineList events={[]} />);
    expect(screen.getByText('Nothing recorded yet')).toBeTruthy();
  });
});
