// @vitest-environment jsdom
// The plan viewer in a DOM: a click reports plan metres and image pixels, a drag pans instead of
// clicking, the wheel zooms around the pointer, the layers and the view-change callback get the
// plan-metres-to-screen transform, and a draggable item reports where it was dropped. jsdom lays
// nothing out, so the viewer is 0×0 and shows the plan at zoom 1 from its corner: a client point
// is an image pixel until the view moves.
import { createRef } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18n from '../src/i18n';
import { PlanView, usePlanDrag, type PlanPointer, type PlanViewHandle } from '../src/indoor/PlanView';
import type { PlanTransform } from '../src/indoor/planTransform';
import { polyfillDom } from './dom';

beforeAll(async () => {
  polyfillDom();
  await i18n.changeLanguage('en');
});
afterEach(cleanup);

function Dot({ onDrop }: { onDrop: (p: [number, number]) => void }) {
  const drag = usePlanDrag({ at: [10, 10], onDrop });
  return <circle data-testid="dot" cx={10} cy={10} r={1} {...drag} />;
}

describe('PlanView', () => {
  it('reports a click in plan metres and image pixels, and not a drag, which pans', () => {
    const clicks: PlanPointer[] = [];
    const views: PlanTransform[] = [];
    render(
      <PlanView planUrl="/plan.png" width={1000} height={800} metresPerPixel={0.05} onPlanClick={(p) => clicks.push(p)} onViewChange={(t) => views.push(t)} />,
    );
    const plan = screen.getByTestId('plan-view');
    fireEvent.pointerDown(plan, { button: 0, pointerId: 1, clientX: 200, clientY: 100 });
    fireEvent.pointerUp(plan, { button: 0, pointerId: 1, clientX: 201, clientY: 101 });
    expect(clicks).toHaveLength(1);
    expect(clicks[0]!.pixels).toEqual([201, 101]);
    expect(clicks[0]!.metres[0]).toBeCloseTo(10.05, 10);
    expect(clicks[0]!.metres[1]).toBeCloseTo(5.05, 10);
    expect(clicks[0]!.scaled).toBe(true);
    expect(views.at(-1)!.pixelsPerMetre).toBeCloseTo(20, 10);

    fireEvent.pointerDown(plan, { button: 0, pointerId: 1, clientX: 200, clientY: 100 });
    fireEvent.pointerMove(plan, { pointerId: 1, clientX: 250, clientY: 130 });
    fireEvent.pointerUp(plan, { button: 0, pointerId: 1, clientX: 250, clientY: 130 });
    expect(clicks).toHaveLength(1);
    // Panned by (50, 30): the transform's offset moved with it.
    expect(views.at(-1)!.offsetX).toBe(50);
    expect(views.at(-1)!.offsetY).toBe(30);
  });

  it('works in pixels while the floor has no scale', () => {
    const clicks: PlanPointer[] = [];
    render(<PlanView planUrl="/plan.png" width={1000} height={800} metresPerPixel={null} onPlanClick={(p) => clicks.push(p)} />);
    const plan = screen.getByTestId('plan-view');
    expect(plan.getAttribute('data-scaled')).toBe('false');
    fireEvent.pointerDown(plan, { button: 0, pointerId: 1, clientX: 30, clientY: 40 });
    fireEvent.pointerUp(plan, { button: 0, pointerId: 1, clientX: 30, clientY: 40 });
    expect(clicks[0]).toMatchObject({ metres: [30, 40], pixels: [30, 40], scaled: false });
  });

  it('zooms around the pointer with the wheel, and gives layers and the handle the transform', () => {
    const ref = createRef<PlanViewHandle>();
    const layers = vi.fn((ctx: { transform: PlanTransform }) => <canvas data-testid="layer" data-k={ctx.transform.pixelsPerMetre} />);
    render(<PlanView ref={ref} planUrl="/plan.png" width={1000} height={800} metresPerPixel={0.1} layers={layers} />);
    expect(screen.getByTestId('layer').getAttribute('data-k')).toBe('10');
    const plan = screen.getByTestId('plan-view');
    act(() => {
      plan.dispatchEvent(new WheelEvent('wheel', { deltaY: -100, clientX: 100, clientY: 50, bubbles: true, cancelable: true }));
    });
    const t = ref.current!.transform()!;
    expect(t.pixelsPerMetre).toBeGreaterThan(10);
    // The point under the pointer (10 m, 5 m) is still under it.
    expect(t.offsetX + 10 * t.pixelsPerMetre).toBeCloseTo(100, 8);
    expect(t.offsetY + 5 * t.pixelsPerMetre).toBeCloseTo(50, 8);
    act(() => ref.current!.fit());
    expect(ref.current!.transform()!.pixelsPerMetre).toBe(10);
  });

  it('drops a dragged item at its place plus the pointer\'s movement, without clicking the plan', () => {
    const clicks: PlanPointer[] = [];
    const drops: [number, number][] = [];
    render(
      <PlanView planUrl="/plan.png" width={1000} height={800} metresPerPixel={0.1} onPlanClick={(p) => clicks.push(p)}>
        <Dot onDrop={(p) => drops.push(p)} />
      </PlanView>,
    );
    const dot = screen.getByTestId('dot');
    fireEvent.pointerDown(dot, { button: 0, pointerId: 3, clientX: 100, clientY: 100 });
    fireEvent.pointerMove(dot, { pointerId: 3, clientX: 130, clientY: 100 });
    fireEvent.pointerUp(dot, { pointerId: 3, clientX: 150, clientY: 80 });
    expect(clicks).toEqual([]);
    expect(drops).toHaveLength(1);
    expect(drops[0]![0]).toBeCloseTo(15, 10);
    expect(drops[0]![1]).toBeCloseTo(8, 10);
  });
});
