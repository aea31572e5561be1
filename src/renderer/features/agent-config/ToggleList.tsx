import type { ReactNode } from 'react';

/** Named switches, one checkbox each, in the order of `values`; a change hands back the whole record. */
export function ToggleList<K extends string>(props: {
  values: Record<K, boolean>;
  onChange: (values: Record<K, boolean>) => void;
  /** What each switch says, after its checkbox. */
  label: (key: K, on: boolean) => ReactNode;
}) {
  const { values, onChange, label } = props;
  return (
    <>
      {(Object.keys(values) as K[]).map((key) => (
        <label key={key}>
          <input
            type="checkbox"
            checked={values[key]}
            onChange={(e) => onChange({ ...values, [key]: e.target.checked })}
          />
          {label(key, values[key])}
        </label>
      ))}
    </>
  );
}
