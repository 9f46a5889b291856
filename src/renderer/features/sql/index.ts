// SQL over a catalog (#39): the query view (editor, result, plan, history, Save as table…) and its New query button.
export { QueryView } from './QueryView'
export { NewQueryButton } from './NewQueryButton'
