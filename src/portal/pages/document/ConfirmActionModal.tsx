import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Asks before a destructive (`danger`) action, Go back first. */
export function ConfirmActionModal({
  action,
  entity,
  onConfirm,
  onClose,
}: {
  /** The action waiting for the answer, or null when the dialog is closed. */
  action: string | null;
  /** The entity id, for a text of its own (`<entity>.confirm.<action>`). */
  entity: string;
  onConfirm: (action: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const label = action ? t(`actions.${action}`, { defaultValue: action }) : '';
  const body = action
    ? t(`${entity}.confirm.${action}`, {
        defaultValue: t(`confirm.${action}`, { defaultValue: t('confirm.default') }),
      })
    : '';
  return (
    <Modal
      opened={action !== null}
      onClose={onClose}
      title={label}
      centered
      // Two named buttons (and Escape) answer; a bare cross would be a third, vaguer one.
      withCloseButton={false}
    >
      <Text mb="lg">{body}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} data-autofocus>
          {t('confirm.back')}
        </Button>
        <Button color="red" onClick={() => action && onConfirm(action)}>
          {label}
        </Button>
      </Group>
    </Modal>
  );
}
