import type { Screen } from '../stores/screen-store';
import { ConnectorsScreen } from './connectors/ConnectorsScreen';
import { LibraryScreen } from './library/LibraryScreen';
import { SettingsScreen } from './settings/SettingsScreen';
import { AccountScreen } from './account/AccountScreen';
import { ModelSettings } from './models/ModelSettings';

/** The person-level screen chosen in the sidebar footer (everything but the chat). */
export function PersonScreen(props: { screen: Exclude<Screen, 'chat'> }) {
  switch (props.screen) {
    case 'library':
      return <LibraryScreen />;
    case 'connectors':
      return <ConnectorsScreen />;
    case 'account':
      return <AccountScreen />;
    case 'settings':
      return (
        <SettingsScreen>
          <ModelSettings />
        </SettingsScreen>
      );
  }
}
