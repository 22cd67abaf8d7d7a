import {
  createContext,
  forwardRef,
  useCallback,
  useContext,
  useEffect,
  useImperativeHandle,
  useMemo,
  useReducer,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import {
  Badge,
  Box,
  Button,
  Center,
  Group,
  Loader,
  NativeSelect,
  Stack,
  Tabs,
  Text,
} from '@mantine/core';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { createPrecompiledValidator, type ValidatorFunctions } from '@rjsf/validator-ajv8';
import type { FieldError } from '../../core/api/errors';
import { translate } from '../../core/i18n/translate';
import { resolvePointer } from '../../core/rules/registry';
import {
  applicableData,
  requiredSections,
  sectionApplies,
  sectionOfPath,
  sectionsOf,
} from '../../core/rules/sections';
import { fieldApplies } from '../../core/definitions/conditional-fields';
import type { EngineFormContext } from './context';
import { ReadOnlySection } from './ReadOnlyView';
import { useFirstPaintDone } from './firstPaint';
import { isBlank, sectionStatus, type SectionStatus } from './sectionStatus';
import { SectionEditor } from './SectionEditor';
import { asObject, fieldLabel } from './texts';
import type { DocumentData, DocumentFormHandle, DocumentFormProps } from './types';
import { flushEdits } from './pendingEdits';
import { validatorSource } from './loadEntityValidators';
import { decorateUi } from './ui';
import { useWidgets } from './widgets';
import './sections.css';
import {
  changedPaths,
  isShown,
  sameAnswers,
  toErrorSchema,
  validateDocument,
  validateSection,
} from './validation';
import { ErrorAlert } from '../ErrorAlert';

const NO_ERRORS: FieldError[] = [];

/** The active section's editor, through a context: a keystroke re-renders this slot alone. */
const PanelContext = createContext<ReactNode>(null);

function ActivePanel() {
  return useContext(PanelContext);
}

/** The same object while `key` (a digest of its content) is unchanged. */
function useStable<T>(value: T, key: string): T {
  const kept = useRef<{ key: string; value: T } | undefined>(undefined);
  if (kept.current?.key !== key) kept.current = { key, value };
  return kept.current.value;
}

/**
 * A document of any entity as a wizard of sections (docs/forms.md): only the active section is
 * validated per keystroke, the whole document on section change and `validateAll()`.
 */
export const DocumentForm = forwardRef<DocumentFormHandle, DocumentFormProps>(
  function DocumentForm(props, ref) {
    const {
      definition,
      texts,
      language,
      value,
      validators,
      editable = 'all',
      hidden,
      readOnly = false,
      extraErrors = NO_ERRORS,
    } = props;
    const entityId = definition.id;
    const rules = useMemo(() => definition.rules ?? [], [definition.rules]);
    const source = useMemo(() => validatorSource(validators), [validators]);
    const sourceRef = useRef(source);
    sourceRef.current = source;
    // Re-renders once a validator module has arrived (`source` answers with it from then on).
    const [, validatorsArrived] = useReducer((count: number) => count + 1, 0);
    const [validatorsFailed, setValidatorsFailed] = useState(false);
    const isEditable = useCallback(
      (sectionId: string) => !readOnly && (editable === 'all' || editable.includes(sectionId)),
      [readOnly, editable],
    );
    // Left out: a read-only section holding nothing, and one that does not apply (its `when`).
    const blankKey = sectionsOf(definition)
      .map((s) => (!sectionApplies(s, value) ? 'x' : isBlank(value[s.id]) ? '0' : '1'))
      .join('');
    const sections = useMemo(
      () =>
        sectionsOf(definition).filter(
          (s) =>
            !hidden?.includes(s.id) &&
            sectionApplies(s, value) &&
            (isEditable(s.id) || !isBlank(value[s.id])),
        ),
      // `value` changes on every keystroke; which sections are blank seldom does.
      // eslint-disable-next-line react-hooks/exhaustive-deps
      [definition, hidden, isEditable, blankKey],
    );
    const [chosen, setActive] = useState<string>(() => {
      const wanted = props.initialSection;
      return wanted && sections.some((s) => s.id === wanted) ? wanted : (sections[0]?.id ?? '');
    });
    // The chosen section may have emptied (a reset): the first one shown is open instead.
    const active = sections.some((s) => s.id === chosen) ? chosen : (sections[0]?.id ?? '');
    const activeRef = useRef(active);
    activeRef.current = active;
    const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
    const [visited, setVisited] = useState<ReadonlySet<string>>(() => new Set());
    const [showAll, setShowAll] = useState(false);
    const [documentErrors, setDocumentErrors] = useState<FieldError[] | undefined>();

    // The latest props, for callbacks that stay stable across keystrokes.
    const latest = useRef(props);
    latest.current = props;
    const dirty = useRef(false);
    // The document last handed to onChange, until the parent renders with it.
    const sent = useRef<{ base: DocumentData; value: DocumentData } | undefined>(undefined);
    const currentValue = useCallback((): DocumentData => {
      const s = sent.current;
      return s !== undefined && s.base === latest.current.value ? s.value : latest.current.value;
    }, []);

    // A check of the whole document asked for before its validator arrived.
    const documentCheckPending = useRef(false);
    const runDocument = useCallback(() => {
      const p = latest.current;
      const source = sourceRef.current;
      const validate = source.document();
      // What no longer applies (its section's `when`) is dropped by the server: not checked.
      const data = applicableData(p.definition, currentValue());
      documentCheckPending.current = !validate;
      const errors = validateDocument(
        validate ??
          Object.fromEntries(
            sectionsOf(p.definition).map(({ id }) => [id, source.section(id)?.validate]),
          ),
        p.definition.rules ?? [],
        data,
        p.texts,
        p.language,
        p.definition,
      );
      if (validate || errors.length > 0) setDocumentErrors(errors);
      return errors;
    }, [currentValue]);

    // Each section's status needs its errors: the document is validated once on opening.
    const checksDocument =
      !readOnly && editable !== undefined && (editable === 'all' || editable.length > 0);
    useEffect(() => {
      if (!checksDocument) return;
      if (sourceRef.current.document()) runDocument();
      else documentCheckPending.current = true;
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }, []);

    // Messages are translated: a language switch re-validates what was validated.
    useEffect(() => {
      if (documentErrors !== undefined) runDocument();
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }, [language]);

    const goTo = useCallback(
      (sectionId: string) => {
        // Text typed in the section a moment ago reaches the document first.
        flushEdits();
        const previous = activeRef.current;
        if (previous === sectionId) return;
        activeRef.current = sectionId;
        setVisited((old) => new Set(old).add(previous));
        runDocument();
        setActive(sectionId);
        latest.current.onSectionChange?.(sectionId);
      },
      [runDocument],
    );

    useImperativeHandle(
      ref,
      (): DocumentFormHandle => ({
        validateAll: () => {
          flushEdits();
          setShowAll(true);
          return runDocument();
        },
        goToSection: goTo,
        flush: flushEdits,
        currentValue: () => {
          flushEdits();
          return currentValue();
        },
        markClean: () => {
          dirty.current = false;
          latest.current.onDirtyChange?.(false);
        },
      }),
      [runDocument, goTo, currentValue],
    );

    const onSectionChange = useCallback(
      (sectionId: string, sectionValue: unknown) => {
        const p = latest.current;
        const base = currentValue();
        const before = base[sectionId];
        const changed = changedPaths(before, sectionValue, `/${sectionId}`);
        if (changed.length === 0) return;
        setTouched((old) => {
          if (changed.every((path) => old.has(path))) return old;
          const next = new Set(old);
          changed.forEach((path) => next.add(path));
          return next;
        });
        const next: DocumentData = { ...base, [sectionId]: sectionValue };
        if (sectionValue === undefined) delete next[sectionId];
        if (!dirty.current && !sameAnswers(before, sectionValue)) {
          dirty.current = true;
          p.onDirtyChange?.(true);
        }
        sent.current = { base: p.value, value: next };
        p.onChange(next);
      },
      [currentValue],
    );

    const onTouch = useCallback((pointer: string) => {
      setTouched((old) => (old.has(pointer) ? old : new Set(old).add(pointer)));
    }, []);

    // The open section's validators, then its neighbours', then the whole document's.
    const activeValidators = source.section(active);
    const activeIndex = sections.findIndex((s) => s.id === active);
    const neighbours = [sections[activeIndex + 1]?.id, sections[activeIndex - 1]?.id].join(' ');
    useEffect(() => {
      let current = true;
      const arrived = () => {
        if (current) validatorsArrived();
      };
      if (!isEditable(active)) return undefined;
      if (!source.section(active)) {
        source.loadSection(active).then(arrived, (error: unknown) => {
          console.warn('[form] section validators could not be loaded', error);
          if (current) setValidatorsFailed(true);
        });
        return () => {
          current = false;
        };
      }
      for (const id of neighbours.split(' ').filter(Boolean))
        if (isEditable(id)) source.loadSection(id).catch(() => undefined);
      if (checksDocument && !source.document()) {
        source.loadDocument().then(
          () => {
            arrived();
            if (current && documentCheckPending.current) runDocument();
          },
          (error: unknown) => console.warn('[form] document validator could not be loaded', error),
        );
      }
      return () => {
        current = false;
      };
    }, [source, active, activeValidators, neighbours, isEditable, checksDocument, runDocument]);

    // Per keystroke: the active section alone, without what does not apply (its fields' `when`).
    const sectionValue = value[active];
    const applyingValue = useMemo(
      () => applicableData(definition, value)[active],
      [definition, active, value],
    );
    const activeErrors = useMemo(
      () =>
        validateSection(
          active,
          activeValidators?.validate,
          rules,
          { [active]: applyingValue },
          texts,
          language,
        ),
      [active, applyingValue, activeValidators, rules, texts, language],
    );

    const errorsOf = useCallback(
      (sectionId: string): FieldError[] => {
        const client =
          sectionId === active
            ? activeErrors
            : (documentErrors ?? []).filter((e) => sectionOfPath(e.path) === sectionId);
        const all = showAll || (visited.has(sectionId) && sectionId !== active);
        const shown = client.filter((e) => all || isShown(e.path, touched));
        // The screen hands back what the form found (an action it refused): counted once.
        const said = new Set(shown.map((e) => `${e.path}\0${e.message}`));
        const server = extraErrors.filter(
          (e) => sectionOfPath(e.path) === sectionId && !said.has(`${e.path}\0${e.message}`),
        );
        return [...shown, ...server];
      },
      [active, activeErrors, documentErrors, extraErrors, showAll, visited, touched],
    );

    const activeShown = useMemo(() => errorsOf(active), [errorsOf, active]);
    // A new ErrorSchema only when the shown errors change, not on every keystroke.
    const errorSchema = useStable(
      useMemo(() => toErrorSchema(activeShown), [activeShown]),
      JSON.stringify(activeShown.map((e) => [e.path, e.message])),
    );

    const formContext = useMemo<EngineFormContext>(
      () => ({
        entityId,
        texts,
        language,
        services: props.services ?? {},
        valueAt: (pointer: string) => resolvePointer(currentValue(), pointer),
        fieldApplies: (pointer: string) =>
          fieldApplies(latest.current.definition, pointer, currentValue()),
      }),
      [entityId, texts, language, props.services, currentValue],
    );

    const widgets = useWidgets();
    // The section's form once its validators have arrived (RJSF's schema is theirs).
    const editor = useMemo(() => {
      if (!activeValidators) return undefined;
      const schema = activeValidators.schema as RJSFSchema;
      const property = asObject(asObject(schema.properties as never)?.[active]) ?? {};
      const uiTexts = { texts, language, entityId, widgets };
      const uiSchema: UiSchema = {
        'ui:submitButtonOptions': { norender: true },
        [active]: decorateUi(property, asObject(definition.uiSchema?.[active]), active, uiTexts),
      };
      const rjsf = activeValidators.rjsf as unknown as ValidatorFunctions;
      return { schema, uiSchema, validator: createPrecompiledValidator(rjsf, schema) };
    }, [active, definition.uiSchema, texts, language, entityId, activeValidators, widgets]);

    const formData = useMemo(
      () => (sectionValue === undefined ? {} : { [active]: sectionValue }),
      [active, sectionValue],
    );

    const t = useCallback((key: string) => translate(texts, language, key), [texts, language]);
    const statusOf = (sectionId: string, shown: number): SectionStatus | undefined => {
      if (!isEditable(sectionId)) return undefined;
      // An error shown there (one the server found too) leaves it in progress.
      if (sectionId === active) return sectionStatus(value[sectionId], activeErrors.length + shown);
      // A section holding answers has a status once the document has been checked.
      if (documentErrors === undefined && !isBlank(value[sectionId])) return undefined;
      const errors = (documentErrors ?? []).filter((e) => sectionOfPath(e.path) === sectionId);
      return sectionStatus(value[sectionId], errors.length + shown);
    };
    // Which editable sections must be filled in, said in the list before anything is sent.
    const mustFill = requiredSections(definition, value);
    // The task list's rows, stable while unchanged: the list re-renders only when one changes.
    const allItems = sections.map((section) => {
      const count = section.id === active ? activeShown.length : errorsOf(section.id).length;
      const status = statusOf(section.id, count);
      return {
        id: section.id,
        label: fieldLabel(texts, language, entityId, section.id),
        count,
        required: isEditable(section.id) && mustFill.has(section.id) && t('form.taskList.required'),
        status: status && t(`form.sectionStatus.${status}`),
      };
    });
    const items = useStable(allItems, JSON.stringify(allItems));

    const panel = !isEditable(active) ? (
      <ReadOnlySection
        schema={asObject(asObject(definition.schema.properties)?.[active]) ?? {}}
        ui={asObject(definition.uiSchema?.[active])}
        value={applyingValue}
        path={active}
        texts={texts}
        language={language}
        entityId={entityId}
        services={props.services}
      />
    ) : editor ? (
      <SectionEditor
        sectionId={active}
        {...editor}
        formData={formData}
        errorSchema={errorSchema}
        formContext={formContext}
        onSectionChange={onSectionChange}
        onTouch={onTouch}
      />
    ) : (
      <Center py="xl">
        {validatorsFailed ? (
          <ErrorAlert>{t('messages.unableToLoad')}</ErrorAlert>
        ) : (
          <Loader role="status" aria-label={t('messages.loading')} />
        )}
      </Center>
    );

    // The task list's tabs wait for the first paint (docs/performance.md).
    const listShown = useFirstPaintDone();
    const chrome = useMemo(() => {
      const previous = items[activeIndex - 1];
      const next = items[activeIndex + 1];
      return (
        <Stack gap="md">
          {/* On a phone a select names the open section: a list of 23 would fill the screen. */}
          <NativeSelect
            hiddenFrom="sm"
            label={t('form.section')}
            value={active}
            onChange={(event) => goTo(event.currentTarget.value)}
            data={items.map((item) => ({
              value: item.id,
              label: [item.label, item.required, item.status, item.count > 0 && `(${item.count})`]
                .filter(Boolean)
                .join(' · '),
            }))}
          />
          {/* Elsewhere the sections read down the side as a task list, each with its status. */}
          <Tabs
            value={active}
            onChange={(id) => id && goTo(id)}
            keepMounted={false}
            orientation="vertical"
            classNames={{ root: 'engine-sections', list: 'engine-sections-list' }}
          >
            {listShown ? (
              <Tabs.List visibleFrom="sm" aria-label={t('form.sections')}>
                {items.map((item) => (
                  <Tabs.Tab
                    key={item.id}
                    value={item.id}
                    rightSection={
                      item.count > 0 ? (
                        <Badge
                          color="red"
                          size="sm"
                          circle
                          data-testid={`section-errors-${item.id}`}
                        >
                          {item.count}
                        </Badge>
                      ) : undefined
                    }
                  >
                    <span>{item.label}</span>
                    {(item.status || item.required) && (
                      <Text
                        component="span"
                        size="xs"
                        c="dimmed"
                        display="block"
                        data-testid={`section-status-${item.id}`}
                      >
                        {item.required && (
                          <Text component="span" inherit fw={700}>
                            {item.required}
                          </Text>
                        )}
                        {item.required && item.status && ' · '}
                        {item.status}
                      </Text>
                    )}
                  </Tabs.Tab>
                ))}
              </Tabs.List>
            ) : (
              // Its place, kept so that the section does not move when the list arrives.
              <Box visibleFrom="sm" className="engine-sections-list" />
            )}
            <Tabs.Panel value={active} className="engine-section-panel">
              <ActivePanel />
            </Tabs.Panel>
          </Tabs>
          <Group justify="space-between">
            <Button
              variant="default"
              disabled={!previous}
              onClick={() => previous && goTo(previous.id)}
            >
              {t('form.previous')}
            </Button>
            <Button variant="default" disabled={!next} onClick={() => next && goTo(next.id)}>
              {t('form.next')}
            </Button>
          </Group>
        </Stack>
      );
    }, [active, items, activeIndex, goTo, t, listShown]);

    return <PanelContext.Provider value={panel}>{chrome}</PanelContext.Provider>;
  },
);
