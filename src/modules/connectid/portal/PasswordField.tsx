import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * A password field whose show-password button is in the tab order and named in the page's
 * language (Mantine's is out of the tab order and named in English), so a keyboard user can
 * check what they typed as a mouse user can.
 */
export function PasswordField(props: PasswordInputProps) {
  const { t } = useTranslation();
  return (
    <PasswordInput
      {...props}
      visibilityToggleFocusable
      visibilityToggleButtonProps={{ 'aria-label': t('register.showPassword') }}
    />
  );
}
