import type { ReactNode } from 'react';
import { sectionTitles } from './agent-config-words';
import type { AgentConfigSection } from '../../stores/agent-config-store';

/** The frame every section shares: its heading (the region's name), a line about it, its body. */
export function SectionFrame(props: { section: AgentConfigSection; about?: ReactNode; children: ReactNode }) {
  const headingId = `studio-${props.section}-title`;
  return (
    <section className="studio-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{sectionTitles[props.section]}</h2>
      {props.about ? <p className="muted studio-about">{props.about}</p> : null}
      {props.children}
    </section>
  );
}
