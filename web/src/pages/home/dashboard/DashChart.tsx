// A dashboard chart that follows the size of its box, except while the box is hidden: the
// dashboard is kept alive, so leaving it hides it (display: none), and resizing a chart to 0×0
// breaks ECharts' map (geo) component and gains nothing for the others.
import { useEffect, useRef } from 'react';
import ReactECharts, { type EChartsReactProps } from 'echarts-for-react';

export function DashChart(props: Omit<EChartsReactProps, 'autoResize'>) {
  const chart = useRef<ReactECharts>(null);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // The size the chart was drawn at: the first report is that size, not a change.
    let drawn: { width: number; height: number } | null = null;
    const ro = new ResizeObserver(([entry]) => {
      const { width, height } = entry!.contentRect;
      if (!width || !height) return;
      if (drawn && (drawn.width !== width || drawn.height !== height)) chart.current?.getEchartsInstance()?.resize();
      drawn = { width, height };
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  return (
    <div ref={box}>
      <ReactECharts ref={chart} {...props} autoResize={false} />
    </div>
  );
}
