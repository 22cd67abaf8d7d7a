import { List, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  checkPassword,
  policyRules,
  type PasswordRules,
} from '../../../core/identity/password-policy';

/** The password policy listed before the field, each rule ticked once the password meets it. */
export function PasswordRulesList({
  id,
  rules,
  password,
  login,
}: {
  id: string;
  rules: PasswordRules | undefined;
  password: string;
  login: string;
}) {
  const { t } = useTranslation();
  const listed = policyRules(rules);
  if (listed.length === 0) return null;
  const broken = new Set(checkPassword(rules, password, login).map((p) => p.rule));
  return (
    <div id={id}>
      <Text size="sm" fw={500}>
        {t('register.passwordRules')}
      </Text>
      <List size="sm" spacing={2}>
        {listed.map(([rule, limit]) => {
          const met = password !== '' && !broken.has(rule);
          return (
            <List.Item key={rule} icon={<span aria-hidden="true">{met ? '✓' : '•'}</span>}>
              {rule === 'usernameInPassword'
                ? t('register.rules.usernameInPassword')
                : t(`register.rules.${rule}`, { count: limit })}
              <VisuallyHidden>
                {` (${met ? t('register.ruleMet') : t('register.ruleNotMet')})`}
              </VisuallyHidden>
            </List.Item>
          );
        })}
      </List>
    </div>
  );
}
