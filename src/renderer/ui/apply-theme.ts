import './theme-choice.css';
import type { AppSettings } from '../../shared/bridge';

/**
 * Sets the page's theme. `system` removes the attribute so theme.css follows the OS through
 * `prefers-color-scheme`; light and dark pin it (settings.css overrides the colours).
 */
export function applyTheme(theme: AppSettings['theme'], root: HTMLElement = document.documentElement): void {
  if (theme === 'system') delete root.dataset['theme'];
  else root.dataset['theme'] = theme;
}
