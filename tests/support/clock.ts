import { dayIn } from '../../src/core/identity/declared-checks';

/** The wall-clock time `hour`:00 (0-23) in `timeZone` as an instant, on the day `day` (YYYY-MM-DD). */
export function instantAt(timeZone: string, day: string, hour: number): Date {
  const wanted = Date.parse(`${day}T${String(hour).padStart(2, '0')}:00:00Z`);
  let instant = wanted;
  // The zone's offset at the instant, applied twice so a guess across a clock change settles.
  for (let i = 0; i < 2; i++) instant -= wallClock(timeZone, new Date(instant)) - wanted;
  return new Date(instant);
}

/** The wall-clock time at `instant` in `timeZone`, read as if it were UTC (milliseconds). */
function wallClock(timeZone: string, instant: Date): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hourCycle: 'h23',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(instant);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return (
    Date.parse(`${dayIn(timeZone, instant)}T00:00:00Z`) +
    (part('hour') * 60 + part('minute')) * 60_000
  );
}

/** The day `offset` days after the calendar day `day` (YYYY-MM-DD). */
export function daysAfter(day: string, offset: number): string {
  return new Date(Date.parse(day) + offset * 86_400_000).toISOString().slice(0, 10);
}
