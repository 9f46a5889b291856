export { claimsFor, CLAIMS_DIR, NameClaims } from './claims'
export type { Claim } from './lease'
