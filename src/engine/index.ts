/** Generic, business-free React pieces: everything they show comes from the definitions. */
export { CatalogFinder } from './CatalogFinder';
export { CatalogEntryForm } from './CatalogEntryForm';
export { downloadText } from './csv';
export { DocumentFinder } from './documents/DocumentFinder';
export {
  DocumentInformation,
  VersionList,
  HistoryTable,
  DocumentTimeline,
  StatusBadge,
} from './documents/DocumentChrome';
export { LatestActionNotes } from './documents/LatestActionNotes';
export { CaseWorkPanels } from './documents/CaseWork';
export { ReferringDocuments, RenewalButton } from './documents/Renewals';
export { ScreeningHits } from './documents/ScreeningHits';
