import type { AgentStartingPoint } from '../../shared/api';
import { catalogSkill } from './community-catalog';

/**
 * A starting point as the service keeps it: what the list shows (the wire's `inicios`, written by the route),
 * plus the prompt and starters it sets.
 */
export interface StartingPointRecipe extends AgentStartingPoint {
  prompt: string;
  starters: string[];
}

/**
 * The starting points offered for a new agent (our extension, docs/extensions.md). Each is a prompt and skills
 * of the community catalog; a skill the catalog lacks is left out, so the list never promises one it cannot
 * install.
 */
const RECIPES: StartingPointRecipe[] = [
  {
    id: 'writer',
    name: 'Writer',
    description: 'Drafts, edits and summarises text: notes, announcements, release notes.',
    skills: ['meeting-notes', 'release-notes'],
    prompt:
      'You are a careful writer and editor. Write plainly, keep the reader in mind, and ask what tone and length the person wants when it is not clear.',
    starters: ['Summarise these meeting notes', 'Draft release notes from this list'],
  },
  {
    id: 'coder',
    name: 'Coder',
    description: 'Reads and changes code in its workspace, explains diffs, writes commit messages.',
    skills: ['commit-message'],
    prompt:
      'You are a software engineer. Read the code in your workspace before changing it, keep changes small, and explain what you changed and why.',
    starters: ['Explain this code', 'Write a commit message for these changes'],
  },
  {
    id: 'researcher',
    name: 'Researcher',
    description: 'Digs through files and data, and reports what it found with its sources.',
    skills: ['csv-report', 'meeting-notes'],
    prompt:
      'You are a researcher. Look at the material before answering, say where each finding comes from, and say plainly what you could not find out.',
    starters: ['Summarise this CSV file', 'What do these notes say about the budget?'],
  },
];

export function startingPoints(): StartingPointRecipe[] {
  return RECIPES.map((recipe) => ({
    ...recipe,
    skills: recipe.skills.filter((slug) => catalogSkill(slug) !== null),
  }));
}

export function startingPoint(id: string): StartingPointRecipe | null {
  return startingPoints().find((recipe) => recipe.id === id) ?? null;
}
