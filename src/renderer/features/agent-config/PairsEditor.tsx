import { useState } from 'react';

/**
 * Name/value rows for headers or env. Values are secrets more often than not: they show masked
 * (a password field) until the person asks to see them.
 */
export function PairsEditor(props: {
  label: string;
  namePlaceholder: string;
  pairs: [string, string][];
  onChange(pairs: [string, string][]): void;
}) {
  const [shown, setShown] = useState(false);
  const { pairs, onChange } = props;
  const set = (index: number, at: 0 | 1, text: string) =>
    onChange(
      pairs.map((p, i) => (i === index ? ((at === 0 ? [text, p[1]] : [p[0], text]) as [string, string]) : p)),
    );
  return (
    <fieldset className="studio-pairs">
      <legend>{props.label}</legend>
      {pairs.map(([name, value], index) => (
        <div key={index} className="studio-pair">
          <input
            aria-label={`${props.label} name ${index + 1}`}
            placeholder={props.namePlaceholder}
            value={name}
            onChange={(e) => set(index, 0, e.target.value)}
          />
          <input
            aria-label={`${props.label} value ${index + 1}`}
            type={shown ? 'text' : 'password'}
            autoComplete="off"
            value={value}
            onChange={(e) => set(index, 1, e.target.value)}
          />
          <button
            type="button"
            className="small"
            aria-label={`Remove ${props.label.toLowerCase()} ${index + 1}`}
            onClick={() => onChange(pairs.filter((_, i) => i !== index))}
          >
            Remove
          </button>
        </div>
      ))}
      <div className="studio-pair-actions">
        <button type="button" className="small" onClick={() => onChange([...pairs, ['', '']])}>
          Add
        </button>
        {pairs.length > 0 ? (
          <button type="button" className="small" aria-pressed={shown} onClick={() => setShown(!shown)}>
            {shown ? 'Hide values' : 'Show values'}
          </button>
        ) : null}
      </div>
    </fieldset>
  );
}
