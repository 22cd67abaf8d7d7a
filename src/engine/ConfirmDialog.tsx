import { Button, Group, Modal, Stack, Text } from '@mantine/core';

export interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  /** What will happen, in a sentence the reader can act on. */
  message: string;
  cancelLabel: string;
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: () => void;
  /** Red, for what cannot be taken back (the default); else the primary colour. */
  destructive?: boolean;
}

/**
 * The question asked before a step (clearing a flag, revoking a payer, starting a renewal): what
 * will happen, a way back, and the step's button, red when it cannot be taken back.
 */
export function ConfirmDialog({
  opened,
  title,
  message,
  cancelLabel,
  confirmLabel,
  onCancel,
  onConfirm,
  destructive = true,
}: ConfirmDialogProps) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title}>
      <Stack>
        <Text>{message}</Text>
        <Group justify="flex-end">
          {/* The way back has the focus: Enter never takes the step by accident. */}
          <Button variant="default" onClick={onCancel} data-autofocus>
            {cancelLabel}
          </Button>
          <Button color={destructive ? 'red' : undefined} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
