import './settings.css';
import type { ReactNode } from 'react';

/** One titled group of the Settings screen; its region is named by its title. */
export function SettingsGroup(props: { title: string; children: ReactNode }) {
  const id = `settings-${props.title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section className="settings-group" aria-labelledby={id}>
      <h3 id={id} className="settings-group-title">
        {props.title}
      </h3>
      {props.children}
    </section>
  );
}

/** One choice among a few, as radio buttons, each with an optional line of meaning. */
export function RadioChoices<T extends string>(props: {
  legend: string;
  name: string;
  options: readonly { value: T; label: string; meaning?: string }[];
  value: T;
  onChange(value: T): void;
}) {
  return (
    <fieldset className="screen-section settings-choices">
      <legend>{props.legend}</legend>
      {props.options.map((option) => (
        <label key={option.value}>
          <input
            type="radio"
            name={props.name}
            checked={props.value === option.value}
            onChange={() => props.onChange(option.value)}
          />
          {option.meaning ? (
            <span>
              <strong>{option.label}</strong> <span className="muted">— {option.meaning}</span>
            </span>
          ) : (
            option.label
          )}
        </label>
      ))}
    </fieldset>
  );
}
