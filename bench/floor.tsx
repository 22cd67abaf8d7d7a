import { renderBench } from './shared';

/**
 * The floor of the method: the same instrumentation and page shell (Mantine styles, React root)
 * around the four bench inputs as plain uncontrolled <input> elements, no form library. What a
 * keystroke costs here is Chromium's and the harness's share, not either form's.
 */
const FIELDS = ['familyName', 'givenName', 'otherNames', 'occupation'];

renderBench(
  <div>
    {FIELDS.map((field) => (
      <p key={field}>
        <label htmlFor={`floor_${field}`}>{field}</label> <input id={`floor_${field}`} />
      </p>
    ))}
  </div>,
  '#floor_familyName',
);
