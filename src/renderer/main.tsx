import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { App } from './App'
import { JobsProvider } from './features/jobs'
import { warmGridWhenIdle } from './features/table'
import './styles/base.css'
import './styles/layout.css'
import './styles/tree.css'
import './styles/table.css'
import './styles/dialogs.css'

/** Every read the renderer makes, keyed by what it reads (queries/keys.ts); writes say what is stale (queries/invalidate.ts). */
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: Infinity } } })

const container = document.getElementById('root')
if (!container) throw new Error('index.html has no #root element')
createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <JobsProvider>
        <App />
      </JobsProvider>
    </QueryClientProvider>
  </StrictMode>,
)
// Once the first paint is done: the grid's code runs once before the first table opens (warm code at the first click).
warmGridWhenIdle()
