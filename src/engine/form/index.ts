export { DocumentForm } from './DocumentForm';
export { ReadOnlySection, displayValue } from './ReadOnlyView';
export { withRequiredFields } from './ui';
export { unansweredErrors } from './validation';
export { useUnsavedChanges, unsavedQuestionKey } from './useUnsavedChanges';
export type { UnsavedChanges, UnsavedWording } from './useUnsavedChanges';
export {
  entityValidators,
  entityValidatorsUrl,
  sectionValidatorsUrl,
  validatorSource,
} from './loadEntityValidators';
export { engineWidgets, isEngineWidget, useWidgets } from './widgets';
export type { EngineWidgetProps } from './widgets';
export type { EngineFormContext } from './context';
export * from './format';
export type {
  CatalogOption,
  DocumentData,
  DocumentFormHandle,
  DocumentFormProps,
  EntityValidators,
  FormServices,
  PrecompiledValidate,
  SectionValidators,
  ValidatorSource,
} from './types';
