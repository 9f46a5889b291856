export { ProfileModule } from './module'
export { profileView } from './run'
