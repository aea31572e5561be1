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
