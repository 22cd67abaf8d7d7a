import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { Button, Group, Modal, Text } from '@mantine/core';
import { useBlocker, type BlockerFunction } from 'react-router-dom';
import { translate, type Language, type TextTree } from '../../core/i18n/translate';

/** `document`: leaving a document screen; `catalog`: closing a catalogue dialog. */
export type UnsavedWording = 'document' | 'catalog';

export interface UnsavedChanges {
  /** What to render: the navigation guard while dirty, and the confirmation when asked. */
  modal: React.ReactNode;
  /** Runs an in-page action (closing a dialog) at once when clean, else once confirmed. */
  confirm: (proceed: () => void) => void;
  /** Leaves without asking, for a navigation the screen makes itself right after saving. */
  leave: (go: () => void) => void;
}

/** Guards a dirty form: a router navigation or closing the tab asks before leaving. */
export function useUnsavedChanges(
  dirty: boolean,
  wording: UnsavedWording,
  texts: Partial<Record<Language, TextTree>>,
  language: Language,
): UnsavedChanges {
  // Set while the screen itself navigates away after a save: that navigation loses nothing.
  const leaving = useRef(false);
  // Set in the commit that made the form dirty, so a Back pressed right after typing is held.
  const unsaved = useRef(dirty);
  useLayoutEffect(() => {
    unsaved.current = dirty;
  }, [dirty]);
  const [pending, setPending] = useState<(() => void) | undefined>();

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const confirm = useCallback(
    (proceed: () => void) => {
      if (dirty) setPending(() => proceed);
      else proceed();
    },
    [dirty],
  );

  const t = (key: string) => translate(texts, language, key);
  const cancel = () => setPending(undefined);
  const accept = () => {
    const proceed = pending;
    setPending(undefined);
    proceed?.();
  };
  const modal = (
    <>
      {/* Registered for the screen's whole life: registered once dirty, a navigation in the
          two renders React Router takes went through. */}
      <NavigationGuard leaving={leaving} unsaved={unsaved} question={t} wording={wording} />
      {pending !== undefined && (
        <UnsavedModal question={t} wording={wording} onCancel={cancel} onAccept={accept} />
      )}
    </>
  );
  // The router checks blockers after an await, so the flag stays up until the user edits again.
  const leave = useCallback((go: () => void) => {
    leaving.current = true;
    go();
  }, []);
  useEffect(() => {
    if (dirty) leaving.current = false;
  }, [dirty]);
  return { modal, confirm, leave };
}

/** Asks before a react-router navigation to another path while the form is dirty. */
function NavigationGuard({
  leaving,
  unsaved,
  question,
  wording,
}: {
  leaving: RefObject<boolean>;
  unsaved: RefObject<boolean>;
  question: (key: string) => string;
  wording: UnsavedWording;
}) {
  const blocker = useBlocker(
    useCallback<BlockerFunction>(
      ({ currentLocation, nextLocation }) =>
        unsaved.current && !leaving.current && currentLocation.pathname !== nextLocation.pathname,
      [leaving, unsaved],
    ),
  );
  if (blocker.state !== 'blocked') return null;
  return (
    <UnsavedModal
      question={question}
      wording={wording}
      onCancel={() => blocker.reset()}
      onAccept={() => blocker.proceed()}
    />
  );
}

function UnsavedModal({
  question: t,
  wording,
  onCancel,
  onAccept,
}: {
  question: (key: string) => string;
  wording: UnsavedWording;
  onCancel: () => void;
  onAccept: () => void;
}) {
  return (
    <Modal opened onClose={onCancel} title={t('form.unsaved.title')} centered>
      <Text>{t(`form.unsaved.${wording}`)}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onCancel}>
          {t('form.cancel')}
        </Button>
        <Button color="red" onClick={onAccept}>
          {t('form.confirm')}
        </Button>
      </Group>
    </Modal>
  );
}
