import { formatCount } from '../../../core/format';
import type { Language } from '../../../core/i18n/translate';
import './count-table.css';

/**
 * Counts as a table with a bar per count (hidden from screen readers). Plain elements styled by
 * count-table.css: Mantine's Table and chart libraries were far slower (docs/decisions.md).
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
  rows: { label: string; count: number }[];
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
