import { describe, expect, it } from 'vitest';
import i18n from '../src/i18n';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { AlarmMessage } from '../src/i18n/AlarmMessage';
import { alarmMessageText, builtInTypeName, commandDetails, commandName, importColumnTitle } from '../src/i18n/texts';

describe('texts the server keeps as keys', () => {
  it("renders an alarm's content in the console's language, measure and battery too", async () => {
    const params = { measure: 'heartRate', value: 130, limit: 120 };
    await i18n.changeLanguage('en');
    expect(alarmMessageText(i18n.t, 'alarm.msg.above', params, '心率 130 高于上限 120')).toBe('Heart rate 130 above the upper limit 120');
    expect(alarmMessageText(i18n.t, 'alarm.msg.lowBattery', { battery: 15 })).toContain('15%');
    await i18n.changeLanguage('zh-TW');
    expect(alarmMessageText(i18n.t, 'alarm.msg.above', params)).toBe('心率 130 高於上限 120');
    await i18n.changeLanguage('zh-CN');
  });

  it("keeps the server's text when the alarm carries no key (an older server)", () => {
    expect(alarmMessageText(i18n.t, undefined, undefined, 'SOS!')).toBe('SOS!');
    expect(alarmMessageText(i18n.t, 'alarm.msg.nothingLikeThis', {}, 'as sent')).toBe('as sent');
  });

  it('names commands by code in the current language unless an administrator named them', async () => {
    await i18n.changeLanguage('en');
    expect(commandName(i18n.t, 'UPLOAD')).toBe('Upload interval');
    expect(commandName(i18n.t, 'UPLOAD', '')).toBe('Upload interval');
    expect(commandName(i18n.t, 'UPLOAD', 'Vendor interval')).toBe('Vendor interval');
    expect(commandDetails(i18n.t, 'FIND')).toBe('Make the device ring to find it');
    expect(importColumnTitle(i18n.t, 'LoginName')).toBe('Login name');
    expect(builtInTypeName('en', 5)).toBe('SOS');
    expect(builtInTypeName('zh-TW', 22)).toBe('進入帳戶圍欄');
    await i18n.changeLanguage('zh-CN');
    expect(commandName(i18n.t, 'UPLOAD')).toBe('上传间隔');
  });

  it("marks the names people gave inside an alarm's content as user data", async () => {
    await i18n.changeLanguage('en');
    const html = renderToStaticMarkup(createElement(AlarmMessage, { messageKey: 'alarm.msg.fenceOut', params: { fence: '养老院', fenceId: 3 }, text: '离开围栏 养老院' }));
    expect(html).toBe('Left fence <span data-user-data="true">养老院</span>');
    expect(renderToStaticMarkup(createElement(AlarmMessage, { messageKey: 'alarm.msg.offline', params: { minutes: 5 }, text: '' }))).not.toContain('span');
    expect(renderToStaticMarkup(createElement(AlarmMessage, { text: 'as sent' }))).toBe('as sent');
    await i18n.changeLanguage('zh-CN');
  });
});
