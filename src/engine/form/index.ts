export { DocumentForm } from './DocumentForm';
export { withRequiredFields } from './ui';
export { unansweredErrors } from './validation';
export { useUnsavedChanges } from './useUnsavedChanges';
export { entityValidators } from './loadEntityValidators';
export type {
  CatalogOption,
  DocumentData,
  DocumentFormHandle,
  FormServices,
  ValidatorSource,
} from './types';
