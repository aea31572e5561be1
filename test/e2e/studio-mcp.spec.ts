import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { tsxCommand } from '../support/tsx-command';
import { openSection, shoot, signInAndOpen, studioRig } from './studio-support';

const shoutServer = fileURLToPath(new URL('../fixtures/shout-mcp-server.ts', import.meta.url));

const rig = studioRig();

test('MCP servers: added in one step, checked before sending, secrets masked, imported from mcp.json, the whole list saved and the agent restarted', async ({
  page,
}) => {
  await signInAndOpen(page, rig);
  const section = await openSection(page, 'MCP servers');
  await expect(section.getByText('No MCP servers yet.')).toBeVisible();

  // Adding is one step. A bad server is named with its problems, stays in its form, and nothing is sent.
  await section.getByRole('button', { name: 'Add a server' }).click();
  const form = section.getByRole('form', { name: 'New MCP server' });
  await form.getByLabel('Name').fill('Docs');
  await form.getByLabel('URL', { exact: true }).fill('http://mcp.example.com/mcp');
  await form.getByRole('button', { name: 'Add server' }).click();
  // The name is checked in words before anything else, and a valid one is offered.
  const nameProblem = form.getByRole('alert');
  await expect(nameProblem).toContainText('A server name uses only lowercase letters');
  await expect(nameProblem).not.toContainText('[a-z');
  const list = section.getByRole('list', { name: 'MCP servers' });
  await expect(list.getByRole('listitem')).toHaveCount(0);
  await form.getByRole('button', { name: 'Use “docs”' }).click();
  await expect(form.getByLabel('Name')).toHaveValue('docs');
  await form.getByRole('button', { name: 'Add server' }).click();
  const problems = section.getByRole('alert', { name: 'Problems' });
  await expect(problems).toContainText('url must be an https URL');
  await expect(form).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(0);
  const untouched = await rig.api.getMcpServers(rig.agentId);
  expect(untouched.ok && untouched.value.servers).toEqual([]);

  // Fixed in the same form, with a secret header: one click adds and saves it.
  await form.getByLabel('URL', { exact: true }).fill('https://mcp.example.com/mcp');
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await form.getByLabel('Headers name 1').fill('Authorization');
  await form.getByLabel('Headers value 1').fill('Bearer secret-token-123');
  await expect(form.getByLabel('Headers value 1')).toHaveAttribute('type', 'password');
  await form.getByRole('button', { name: 'Add server' }).click();
  await expect(form).toBeHidden();
  await expect(problems).toBeHidden();
  await expect(section.getByRole('status', { name: 'Save result' })).toContainText('Saved 1 server.');
  await expect(list).toContainText('Authorization: Be••••••••');
  await expect(list).not.toContainText('secret-token-123');
  const first = await rig.api.getMcpServers(rig.agentId);
  expect(first.ok && first.value.servers.map((server) => server.name)).toEqual(['docs']);

  // Import in the usual { mcpServers: { name: {...} } } form.
  await section.getByRole('button', { name: 'Import mcp.json' }).click();
  await section.getByLabel(/Paste an mcp.json/).fill(
    JSON.stringify({
      mcpServers: {
        files: { command: 'npx', args: ['-y', 'server-files'], env: { FILES_TOKEN: 'abcdef123456' } },
      },
    }),
  );
  await section.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list).toContainText('npx -y server-files · FILES_TOKEN=ab••••••••');
  // Imports and removals wait for Save the list.
  const imported = await rig.api.getMcpServers(rig.agentId);
  expect(imported.ok && imported.value.servers).toHaveLength(1);

  // An mcp.json file in the { servers: [...] } form; its duplicate name is caught before sending.
  const file = join(rig.scratch, 'mcp.json');
  await writeFile(
    file,
    JSON.stringify({
      servers: [
        { name: 'files', command: 'node' },
        { name: 'files', command: 'no-such-mcp-tool' },
      ],
    }),
  );
  await section.getByRole('button', { name: 'Import mcp.json' }).click();
  await section.getByLabel('Choose a file…').setInputFiles(file);
  await expect(problems).toContainText('Two servers are named "files"');
  await section.getByRole('button', { name: 'Remove files' }).first().click();
  await expect(problems).toBeHidden();

  await section.getByRole('button', { name: 'Save the list' }).click();
  await expect(section.getByRole('status', { name: 'Save result' })).toContainText(
    'The agent was restarted to load them.',
  );
  await shoot(page, 'mcp');

  // A server being developed on the agent's own machine: plain http to localhost, with a note that says so.
  await section.getByRole('button', { name: 'Add a server' }).click();
  const dev = section.getByRole('form', { name: 'New MCP server' });
  await dev.getByLabel('Name').fill('devtools');
  await expect(dev.getByText(/plain http to localhost or 127\.0\.0\.1/)).toBeVisible();
  await dev.getByLabel('URL', { exact: true }).fill('http://localhost:8931/mcp');
  await expect(
    dev.getByText(/^For local development: localhost is the computer the agent runs on/),
  ).toBeVisible();
  await dev.getByRole('button', { name: 'Add server' }).click();
  await expect(dev).toBeHidden();
  await expect(section.getByRole('status', { name: 'Save result' })).toContainText('Saved 3 servers.');

  const held = await rig.api.getMcpServers(rig.agentId);
  if (!held.ok) throw new Error(held.error.message);
  const byName = Object.fromEntries(held.value.servers.map((s) => [s.name, s]));
  expect(Object.keys(byName).sort()).toEqual(['devtools', 'docs', 'files']);
  expect(byName['devtools']).toMatchObject({ url: 'http://localhost:8931/mcp' });
  expect(byName['docs']).toMatchObject({
    url: 'https://mcp.example.com/mcp',
    headers: { Authorization: 'Bearer secret-token-123' },
  });
  expect(byName['files']).toMatchObject({ command: 'no-such-mcp-tool' });

  // After saving, each server says whether it answered (our extension, the official MCP client on the
  // service): a real stdio MCP server with its tool, the others with why not, in words.
  await section.getByRole('button', { name: 'Add a server' }).click();
  const local = section.getByRole('form', { name: 'New MCP server' });
  await local.getByLabel('Local command').check();
  await local.getByLabel('Name').fill('shout');
  const [command, ...args] = tsxCommand(shoutServer);
  await local.getByLabel('Command', { exact: true }).fill(command!);
  await local.getByLabel('Arguments (one per line)').fill(args.join('\n'));
  await local.getByRole('button', { name: 'Add server' }).click();
  await expect(local).toBeHidden();
  const row = (name: string) => list.getByRole('listitem').filter({ hasText: name });
  await expect(row('shout')).toContainText('Connected · 1 tool: shout', { timeout: 60_000 });
  await expect(row('devtools')).toContainText('Could not connect: Nothing answers at http://localhost:8931.');
  await expect(row('files')).toContainText(
    'Could not connect: The command "no-such-mcp-tool" was not found.',
  );
  await shoot(page, 'mcp-status');
});
