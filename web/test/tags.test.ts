import { describe, expect, it } from 'vitest';
import { addView, closeAll, closeOthers, closeView, redirectPathFor, withAffix, cachedPaths, type TagView } from '../src/stores/tagsLogic';

const monitor: TagView = { path: '/', fullPath: '/', title: 'monitor', view: 'Monitor', affix: true, keepAlive: true };
const dashboard: TagView = { path: '/dashboard', fullPath: '/dashboard', title: 'dashboard', view: 'Dashboard', keepAlive: true };
const devices: TagView = { path: '/devices/list', fullPath: '/devices/list?page=2', title: 'deviceList', view: 'Devices', keepAlive: true };
const alarms: TagView = { path: '/alarm/record', fullPath: '/alarm/record', title: 'alarmRecord', view: 'AlarmRecord' };

describe('tags view', () => {
  it('adds a view once and keeps its latest query string', () => {
    let views = addView([], monitor);
    views = addView(views, alarms);
    views = addView(views, alarms);
    expect(views.map((v) => v.path)).toEqual(['/', '/alarm/record']);
    views = addView(views, { ...alarms, fullPath: '/alarm/record?x=1' });
    expect(views[1]!.fullPath).toBe('/alarm/record?x=1');
  });

  it('puts fixed tags first', () => {
    expect(withAffix([alarms], [monitor]).map((v) => v.path)).toEqual(['/', '/alarm/record']);
    expect(withAffix([monitor, alarms], [monitor])).toHaveLength(2);
  });

  it('never closes a fixed tag', () => {
    const r = closeView([monitor, alarms], '/', '/');
    expect(r.views).toHaveLength(2);
    expect(r.next).toEqual({ kind: 'stay' });
  });

  it('closing the active tag goes to the last remaining tag', () => {
    const r = closeView([monitor, alarms, devices, dashboard], '/dashboard', '/dashboard');
    expect(r.views.map((v) => v.path)).toEqual(['/', '/alarm/record', '/devices/list']);
    expect(r.next).toEqual({ kind: 'go', to: '/devices/list?page=2' });
  });

  it('closing another tag stays on the page', () => {
    const r = closeView([monitor, alarms, devices], '/alarm/record', '/devices/list');
    expect(r.views.map((v) => v.path)).toEqual(['/', '/devices/list']);
    expect(r.next).toEqual({ kind: 'stay' });
  });

  it('with no tag left goes to the root, or refreshes a closed Dashboard', () => {
    expect(closeView([alarms], '/alarm/record', '/alarm/record').next).toEqual({ kind: 'go', to: '/' });
    expect(closeView([dashboard], '/dashboard', '/dashboard').next).toEqual({ kind: 'refresh', path: '/dashboard' });
  });

  it('close others keeps fixed tags and the chosen one, and opens it', () => {
    const r = closeOthers([monitor, alarms, devices, dashboard], '/alarm/record', '/dashboard');
    expect(r.views.map((v) => v.path)).toEqual(['/', '/alarm/record']);
    expect(r.next).toEqual({ kind: 'go', to: '/alarm/record' });
    expect(closeOthers([monitor, alarms], '/alarm/record', '/alarm/record').next).toEqual({ kind: 'stay' });
  });

  it('close all keeps only fixed tags and goes to the last of them', () => {
    const r = closeAll([monitor, alarms, devices], '/devices/list');
    expect(r.views).toEqual([monitor]);
    expect(r.next).toEqual({ kind: 'go', to: '/' });
    expect(closeAll([monitor, alarms], '/').next).toEqual({ kind: 'stay' });
    expect(closeAll([dashboard], '/dashboard').next).toEqual({ kind: 'refresh', path: '/dashboard' });
  });

  it('refresh goes through the redirect route', () => {
    expect(redirectPathFor('/devices/list?page=2')).toBe('/redirect/devices/list?page=2');
  });

  it('keeps alive only open views that ask for it', () => {
    expect(cachedPaths([monitor, alarms, devices])).toEqual(['/', '/devices/list']);
  });
});
