import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { App } from './App'
import { warmGridWhenIdle } from './features/table'
import './styles/base.css'
import './styles/layout.css'
import './styles/tree.css'
import './styles/table.css'
import './styles/dialogs.css'

/** Server state of table views (counts, latest versions), keyed by the view (features/table/useTableView.ts). */
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: Infinity } } })

const container = document.getElementById('root')
if (!container) throw new Error('index.html has no #root element')
createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
)
// Once the first paint is done: the grid's code runs once before the first table opens (issue 13).
warmGridWhenIdle()
