import type { FormEvent, ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text, type ModalProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The studio's one dialog: a form of its fields (`children`), Cancel and the submit button. A
 * removal's question focuses Cancel first (`focusCancel`), so Enter never removes by accident;
 * while `busy` (a request under way) Cancel waits and the submit button shows it is loading.
 */
export function StudioDialog(props: {
  opened: boolean;
  title: string;
  submitLabel: string;
  submitColor?: string;
  /** Cancel's words, when they say more than "Cancel" ("Keep"). */
  cancelLabel?: string;
  busy?: boolean;
  focusCancel?: boolean;
  size?: ModalProps['size'];
  /** The form is named by the title too (a form searched for by its name). */
  namedForm?: boolean;
  onClose: () => void;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.title}
      size={props.size}
      closeButtonProps={{ 'aria-label': t('studio.close') }}
    >
      <form
        noValidate
        aria-label={props.namedForm ? props.title : undefined}
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          props.onSubmit();
        }}
      >
        <Stack>
          {props.children}
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={props.onClose}
              disabled={props.busy}
              data-autofocus={props.focusCancel || undefined}
            >
              {props.cancelLabel ?? t('studio.cancel')}
            </Button>
            <Button type="submit" color={props.submitColor} loading={props.busy}>
              {props.submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A question before something is lost: Keep, focused first, or the red `confirmLabel`. */
export function KeepDialog(props: {
  opened: boolean;
  title: string;
  text: string;
  confirmLabel: string;
  onClose: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <StudioDialog
      opened={props.opened}
      title={props.title}
      submitLabel={props.confirmLabel}
      submitColor="red"
      cancelLabel={t('studio.keep')}
      focusCancel
      onClose={props.onClose}
      onSubmit={props.onConfirm}
    >
      <Text>{props.text}</Text>
    </StudioDialog>
  );
}
