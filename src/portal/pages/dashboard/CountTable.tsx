import { formatCount } from '../../../core/format';
import type { Language } from '../../../core/i18n/translate';
import './count-table.css';

export interface CountRow {
  label: string;
  count: number;
}

/**
 * Counts as a table whose count cells carry a bar as long as the count is against the largest
 * (the dashboard's statistics). The table is what screen readers and keyboards read; the bars
 * are a picture of its figures, hidden from them. Plain table elements styled by
 * count-table.css with Mantine's variables: a dozen rows of Mantine's Table parts took 30 ms to
 * render on a desktop, as the figures arrive after the page has shown. Drawing the same figures
 * with a chart library took a third of a second of main thread on a desktop, over a second on a
 * phone, and 98 kB of script (docs/decisions.md).
 */
export function CountTable({
  caption,
  labelHeading,
  countHeading,
  rows,
  tone,
  language,
}: {
  caption: string;
  labelHeading: string;
  countHeading: string;
  rows: CountRow[];
  /** The bars' colour: the brand's blue or its secondary gold (count-table.css). */
  tone: 'brand' | 'secondary';
  language: Language;
}) {
  const largest = Math.max(0, ...rows.map((row) => row.count));
  return (
    <table className="portal-count-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{labelHeading}</th>
          <th scope="col" className="portal-count-heading">
            {countHeading}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.label}>
            <th scope="row">{row.label}</th>
            <td>
              <div className="portal-count-figure">
                <div aria-hidden="true" className="portal-count-track">
                  {row.count > 0 && (
                    <div
                      className="portal-count-bar"
                      data-tone={tone}
                      style={{ width: `${(row.count / largest) * 100}%` }}
                    />
                  )}
                </div>
                <span className="portal-count-value">{formatCount(row.count, language)}</span>
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
