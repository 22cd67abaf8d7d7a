import { useState } from 'react';

/** A confirmation about one item (which flag to clear, which code to revoke) and its dialog's wiring. */
export interface Confirmation<T> {
  /** The item asked about; null while nothing is. */
  pending: T | null;
  /** Asks about `item`: opens the dialog. */
  ask: (item: T) => void;
  /** For `ConfirmDialog`: cancelling forgets the item; confirming forgets it, then acts on it. */
  dialog: { opened: boolean; onCancel: () => void; onConfirm: () => void };
}

/** The step `act` taken on an item only once the reader confirms it. */
export function useConfirmation<T>(act: (item: T) => void): Confirmation<T> {
  const [pending, setPending] = useState<T | null>(null);
  return {
    pending,
    ask: setPending,
    dialog: {
      opened: pending !== null,
      onCancel: () => setPending(null),
      onConfirm: () => {
        setPending(null);
        if (pending !== null) act(pending);
      },
    },
  };
}
