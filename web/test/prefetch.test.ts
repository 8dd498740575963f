// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { preloadWhenIdle, viewsOf, type Idle } from '../src/app/prefetch';
import { resolveRoutes } from '../src/access';

/** An idle callback run by hand: `queue` holds what waits for the browser to be idle. */
function manualIdle() {
  const queue: (() => void)[] = [];
  const idle: Idle = (fn) => {
    queue.push(fn);
    return () => queue.splice(queue.indexOf(fn), 1);
  };
  return { idle, queue };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
afterEach(() => vi.useRealTimers());

describe('page prefetch', () => {
  it('lists the views of the permitted routes once each, in menu order', () => {
    const routes = resolveRoutes([
      { path: '/', children: [{ path: '', view: 'Monitor', meta: { title: 'monitor' } }] },
      { path: '/devices', children: [{ path: 'list', view: 'Devices', meta: { title: 'deviceList' } }, { path: 'again', view: 'Devices', hidden: true }] },
    ] as never);
    expect(viewsOf(routes)).toEqual(['Monitor', 'Devices']);
  });

  it('loads the pages one at a time when the browser is idle, after the delay, and stops when told', async () => {
    const { idle, queue } = manualIdle();
    const loaded: string[] = [];
    const stop = preloadWhenIdle(['Dashboard', 'Devices', 'Health'], { delayMs: 2000, idle, load: async (v) => void loaded.push(v) });
    vi.advanceTimersByTime(1999);
    expect(queue).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(queue).toHaveLength(1);
    queue.shift()!();
    vi.useRealTimers();
    await flush();
    expect(loaded).toEqual(['Dashboard']);
    // The next page waits for the next idle period.
    expect(queue).toHaveLength(1);
    stop();
    expect(queue).toHaveLength(0);
    expect(loaded).toEqual(['Dashboard']);
  });
});
