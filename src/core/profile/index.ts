export { ProfileModule, PROFILE_HISTORY } from './module'
export { profileView } from './run'
