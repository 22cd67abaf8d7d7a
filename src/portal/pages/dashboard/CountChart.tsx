import '@mantine/charts/styles.css';
import './charts.css';
import { BarChart } from '@mantine/charts';

/**
 * The charts are pictures of the tables beside them: hidden from screen readers, so they must
 * not take the keyboard's focus either (recharts' accessibility layer would).
 */
const CHART_OUT_OF_TAB_ORDER = { accessibilityLayer: false };
/** Counts are whole numbers: the value axis never shows 0.25 steps. */
const COUNT_AXIS = { allowDecimals: false };

/** The chart's height (StatisticsPanel keeps the same place for it while its code loads). */
const HEIGHT = 220;

export interface CountChartProps {
  data: Array<Record<string, string | number>>;
  dataKey: string;
  label: string;
  color: string;
}

/**
 * A bar chart of counts (the statistics panel's), with recharts (about 300 kB of the
 * dashboard's code): its own chunk, fetched after the dashboard's, so the dashboard shows its
 * messages and figures without waiting for it.
 */
export default function CountChart({ data, dataKey, label, color }: CountChartProps) {
  return (
    <BarChart
      h={HEIGHT}
      data={data}
      dataKey={dataKey}
      series={[{ name: 'count', label, color }]}
      aria-hidden
      barChartProps={CHART_OUT_OF_TAB_ORDER}
      yAxisProps={COUNT_AXIS}
    />
  );
}
