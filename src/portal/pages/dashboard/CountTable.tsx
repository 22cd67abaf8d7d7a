import { Table } from '@mantine/core';
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
 * are a picture of its figures, hidden from them. One element per row: drawing the same
 * figures with a chart library took a third of a second of main thread on a desktop, over a
 * second on a phone, and 98 kB of script (docs/decisions.md).
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
    <Table withTableBorder striped captionSide="top">
      <Table.Caption className="portal-count-caption">{caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{labelHeading}</Table.Th>
          <Table.Th scope="col" className="portal-count-heading">
            {countHeading}
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.label}>
            <Table.Th scope="row" className="portal-count-label">
              {row.label}
            </Table.Th>
            <Table.Td>
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
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
