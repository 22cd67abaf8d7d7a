import { Radio, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { checkOf } from '../../../core/identity/declared-checks';
import { checkNamed, type DeclaredChecks, type RegistrationOptions } from './registrationChecks';

const CONFIRMATION_CHANNELS = ['mobile', 'email', 'agency', 'agent', 'trader'] as const;
export type ConfirmationChannel = (typeof CONFIRMATION_CHANNELS)[number];
type ChannelOptions = Pick<RegistrationOptions, 'channels' | 'confirmationFields'>;

/** The field a channel's code goes to (the mobile number, the agent named...), if any. */
export function destinationField(options: ChannelOptions, channel: ConfirmationChannel) {
  if (channel === 'mobile') return 'primaryMobileNo';
  return channel === 'email' ? 'emailAddress' : options.confirmationFields?.[channel];
}

/**
 * The channels the person may choose: those switched on (specification 001, section 9), and
 * for agency, agent and trader only when the chosen user type lets them name such an entry.
 */
export function offeredChannels(
  options: ChannelOptions | null,
  type: Readonly<Record<string, unknown>> | undefined,
  declared: DeclaredChecks,
): ConfirmationChannel[] {
  if (!options?.channels) return ['mobile'];
  return CONFIRMATION_CHANNELS.filter((channel) => {
    if (!options.channels?.[channel]) return false;
    if (channel === 'mobile' || channel === 'email') return true;
    const check = checkNamed(declared, options.confirmationFields?.[channel] ?? '');
    return Boolean(type && check && checkOf(type, check) !== 'PROHIBITED');
  });
}

/** Where the confirmation code goes, when there is more than one way. */
export function ConfirmationChannelChoice({
  channels,
  value,
  onChange,
  disabled,
}: {
  channels: readonly ConfirmationChannel[];
  value: ConfirmationChannel;
  onChange: (channel: ConfirmationChannel) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  if (channels.length < 2) return null;
  return (
    <Radio.Group
      label={t('register.channel')}
      value={value}
      onChange={(next) => onChange(next as ConfirmationChannel)}
      required
    >
      <Stack gap="xs" mt="xs">
        {channels.map((channel) => (
          <Radio
            key={channel}
            value={channel}
            label={t(`register.channels.${channel}`)}
            disabled={disabled}
          />
        ))}
      </Stack>
    </Radio.Group>
  );
}
