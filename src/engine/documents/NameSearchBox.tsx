import { useState, type FormEvent } from 'react';
import { Button, Group, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface NameSearchBoxProps {
  /** The box's label (the list's `nameSearch.label`, else "Search by name"). */
  label: string;
  /** The name searched now ('' for none). */
  applied: string;
  onSearch: (name: string) => void;
}

/**
 * A list's name search (docs/lists.md, "Name search"): a name, searched when the form is sent
 * (Enter or the button), cleared by its own button; case, marks and apostrophes do not matter.
 */
export function NameSearchBox({ label, applied, onSearch }: NameSearchBoxProps) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState(applied);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(typed.trim());
  };
  return (
    <form onSubmit={submit} role="search" aria-label={label}>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label={label}
          description={t('documents.nameSearch.hint')}
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          maxLength={200}
          autoComplete="off"
          w={{ base: '100%', sm: 440 }}
          data-name-search
        />
        <Button type="submit" variant="default">
          {t('documents.nameSearch.search')}
        </Button>
        {applied && (
          <Button
            variant="subtle"
            onClick={() => {
              setTyped('');
              onSearch('');
            }}
          >
            {t('documents.nameSearch.clear')}
          </Button>
        )}
      </Group>
    </form>
  );
}
