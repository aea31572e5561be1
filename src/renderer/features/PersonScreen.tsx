import type { Screen } from '../stores/screen-store';
import { lazyPart, WhenLoaded } from '../ui/lazy-part';
import { MarkdownSlot } from '../ui/markdown-slot';
import { ReplyMarkdown } from './chat/ReplyMarkdown';

// Each screen is a chunk of its own, loaded the first time it is opened.
const LibraryScreen = lazyPart(() => import('./library/LibraryScreen').then((m) => m.LibraryScreen));
const ConnectorsScreen = lazyPart(() =>
  import('./connectors/ConnectorsScreen').then((m) => m.ConnectorsScreen),
);
const AccountScreen = lazyPart(() => import('./account/AccountScreen').then((m) => m.AccountScreen));
const SettingsScreen = lazyPart(() => import('./settings/SettingsScreen').then((m) => m.SettingsScreen));
const ModelSettings = lazyPart(() => import('./models/ModelSettings').then((m) => m.ModelSettings));

/** The person-level screen chosen in the sidebar footer (everything but the chat). */
export function PersonScreen(props: { screen: Exclude<Screen, 'chat'> }) {
  return (
    <WhenLoaded>
      <Screen screen={props.screen} />
    </WhenLoaded>
  );
}

function Screen(props: { screen: Exclude<Screen, 'chat'> }) {
  switch (props.screen) {
    case 'library':
      // The preview shows a Markdown file as the chat shows a reply.
      return (
        <MarkdownSlot value={ReplyMarkdown}>
          <LibraryScreen />
        </MarkdownSlot>
      );
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
