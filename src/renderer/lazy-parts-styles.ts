/**
 * The style sheets of the parts that load on first use (the studio, Settings, the library, connectors, the
 * account, the sync panel, schedules, the search palette), loaded with the first screen all the same. Some of
 * their rules lay out or dress what the first screen shows (the chat beside the schedule panel, the sidebar's
 * sync and studio entries), and a sheet that came only with its part left the chat as tall as its messages,
 * so it could not scroll to load earlier ones. They are small next to the scripts that stay lazy.
 */
import './features/account/screens.css';
import './features/agent-config/agent-config.css';
import './features/agent-config/agent-config-parts.css';
import './features/library/library.css';
import './features/models/models.css';
import './features/schedules/schedules.css';
import './features/search/search.css';
import './features/settings/settings.css';
import './features/sync/sync.css';
import './ui/studio-list.css';
