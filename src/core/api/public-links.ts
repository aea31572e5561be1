import { apiRoutes } from '../../shared/api';
import { fillPath } from './route-path';

/** The address people open to read a shared conversation: `<base>/s/<slug>`. */
export function sharedConversationUrl(baseUrl: string, slug: string): string {
  const path = fillPath(apiRoutes.sharedConversationPage, { slug });
  return `${baseUrl.replace(/\/+$/, '')}${path.ok ? path.value : ''}`;
}
