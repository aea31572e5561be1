import './models.css';
import type { ReactNode } from 'react';
import { useServerOffers } from '../../ui/use-server-offers';
import { AgentProgramsSection } from './AgentProgramsSection';
import { ModelProvidersSection } from './ModelProvidersSection';

/**
 * Settings → Models and Settings → Agent programs, each only where the server offers it (our
 * extension, docs/extensions.md): a server that follows the spec alone shows neither. Placed among the
 * Settings screen's groups by PersonScreen, in their look (settings.css).
 */
export function ModelSettings() {
  const providers = useServerOffers('listModelProviders');
  const programs = useServerOffers('listAgentPrograms');
  return (
    <>
      {providers ? (
        <Group id="settings-models" title="Models">
          <ModelProvidersSection />
        </Group>
      ) : null}
      {programs ? (
        <Group id="settings-agent-programs" title="Agent programs">
          <AgentProgramsSection />
        </Group>
      ) : null}
    </>
  );
}

function Group(props: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="settings-group" aria-labelledby={props.id}>
      <h3 id={props.id} className="settings-group-title">
        {props.title}
      </h3>
      {props.children}
    </section>
  );
}
