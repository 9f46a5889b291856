import type { ConnectionInfo, McpLauncher, SavedView } from '../../../contract'

/**
 * **Connect an assistant…**: the configuration an AI assistant needs to start `npm run mcp` over the open catalog,
 * for Claude Desktop, Cursor and VS Code. Read-only unless the user ticks Allow writes. No secret is ever written into
 * a snippet: a REST catalog's key is read by the server from an environment variable (`--header-env`), which each
 * assistant fills its own way (VS Code asks for it and keeps it in its secret storage; Cursor reads it from the
 * environment; Claude Desktop from an `env` block the user adds). An object store's credentials come from the
 * environment Lance reads itself (AZURE_STORAGE_ACCOUNT_KEY, AWS_SECRET_ACCESS_KEY, GOOGLE_APPLICATION_CREDENTIALS).
 */

export type AssistantId = 'claude' | 'cursor' | 'vscode'

export interface Snippet {
  id: AssistantId
  title: string
  /** Where the snippet goes, in words. */
  file: string
  text: string
}

export interface SnippetSet {
  snippets: Snippet[]
  /** The secrets the server reads from the environment, and how to give them (empty when there are none). */
  secrets: { variable: string; what: string }[]
  /** Said when the app does not run from a checkout: the command names a placeholder to replace. */
  placeholder: string | null
}

/** The placeholder for the checkout's folder when the app does not know it (a packaged app). */
export const CHECKOUT_PLACEHOLDER = '<folder of your lance-catalog-browser checkout>'

const PLACEHOLDER_LAUNCHER: McpLauncher = { command: 'npm', args: ['--prefix', CHECKOUT_PLACEHOLDER, 'run', '--silent', 'mcp', '--'] }

/** An environment variable's name for a header: `x-api-key` → `LCB_REST_X_API_KEY`. */
export function headerVariable(header: string): string {
  return `LCB_REST_${header.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`
}

/** The server's arguments for this catalog, and the secrets it reads from the environment. */
export function serverArgs(connection: ConnectionInfo, saved: SavedView | undefined, allowWrites: boolean): { args: string[]; secrets: SnippetSet['secrets'] } {
  const secrets: SnippetSet['secrets'] = []
  const args: string[] = []
  if (connection.kind === 'rest') {
    args.push('--rest', connection.location)
    if (saved?.kind === 'rest') {
      if (saved.auth.kind !== 'none') {
        const header = saved.auth.kind === 'api-key' ? 'x-api-key' : 'authorization'
        args.push('--header-env', `${header}=${headerVariable(header)}`)
        secrets.push({ variable: headerVariable(header), what: saved.auth.kind === 'api-key' ? `the API key of ${saved.name}` : `the bearer token of ${saved.name}` })
      }
      if (saved.database) args.push('--header', `${saved.database.kind === 'name' ? 'x-service-database' : 'x-service-database-prefix'}=${saved.database.value}`)
      for (const header of saved.headers) {
        if (header.secret || header.value === undefined) {
          args.push('--header-env', `${header.name}=${headerVariable(header.name)}`)
          secrets.push({ variable: headerVariable(header.name), what: `the ${header.name} header of ${saved.name}` })
        } else args.push('--header', `${header.name}=${header.value}`)
      }
    }
  } else {
    args.push('--root', connection.location)
    if (saved?.kind === 'object-store') for (const [key, value] of Object.entries(saved.options)) args.push('--storage-option', `${key}=${value}`)
  }
  if (allowWrites) args.push('--allow-writes')
  return { args, secrets }
}

/** A short, stable server name for the config: `lance-` and the catalog's label. */
export function serverName(connection: ConnectionInfo): string {
  return `lance-${connection.label.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'catalog'}`
}

/** JSON as a person reads it: two-space indents, a list of strings (the arguments) on one line. */
export function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/\[\n\s+("(?:[^"\\\n]|\\.)*"(?:,\n\s+"(?:[^"\\\n]|\\.)*")*)\n\s+\]/g, (_, items: string) => `[${items.split(/,\n\s+/).join(', ')}]`)
}

export function assistantSnippets(connection: ConnectionInfo, saved: SavedView | undefined, launcher: McpLauncher | undefined, allowWrites: boolean): SnippetSet {
  const start = launcher ?? PLACEHOLDER_LAUNCHER
  const { args: catalogArgs, secrets } = serverArgs(connection, saved, allowWrites)
  const name = serverName(connection)
  const args = [...start.args, ...catalogArgs]
  const stdio = { command: start.command, args }
  const vscodeInputs = secrets.map((s) => ({ type: 'promptString', id: s.variable.toLowerCase(), description: `Lance catalog: ${s.what}`, password: true }))
  return {
    snippets: [
      { id: 'claude', title: 'Claude Desktop', file: 'claude_desktop_config.json (Settings → Developer → Edit Config)', text: pretty({ mcpServers: { [name]: stdio } }) },
      {
        id: 'cursor',
        title: 'Cursor',
        file: '~/.cursor/mcp.json, or .cursor/mcp.json in a project',
        text: pretty({ mcpServers: { [name]: { ...stdio, ...(secrets.length ? { env: Object.fromEntries(secrets.map((s) => [s.variable, `\${env:${s.variable}}`])) } : {}) } } }),
      },
      {
        id: 'vscode',
        title: 'VS Code',
        file: '.vscode/mcp.json in a workspace (or MCP: Open User Configuration)',
        text: pretty({
          ...(vscodeInputs.length ? { inputs: vscodeInputs } : {}),
          servers: { [name]: { type: 'stdio', ...stdio, ...(secrets.length ? { env: Object.fromEntries(secrets.map((s) => [s.variable, `\${input:${s.variable.toLowerCase()}}`])) } : {}) } },
        }),
      },
    ],
    secrets,
    placeholder: launcher ? null : CHECKOUT_PLACEHOLDER,
  }
}
