import { describe, expect, it } from 'vitest';
import { describeDevice, deviceWords, methodOf } from '../../src/server/identity/sessions';

// What the security page calls a session's device: the browser and system a person recognises,
// from the User-Agent header, never the header itself; and how the session signed in.
describe('a session’s device and sign-in method', () => {
  it.each([
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome on Linux',
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
      'Chrome on Linux',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'Edge on Windows',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
      'Safari on macOS',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
      'Chrome on iOS',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
      'Samsung Internet on Android',
    ],
    ['Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0', 'Firefox on Android'],
    ['curl/8.5.0', 'Unknown browser on an unknown system'],
  ])('%s is %s', (header, words) => {
    expect(deviceWords(describeDevice(header))).toBe(words);
  });

  it('says nothing of a missing header but that it is unknown', () => {
    expect(describeDevice(undefined)).toEqual({ browser: 'unknown', os: 'unknown' });
  });

  it('tells a password from a passkey by the sign-in’s amr', () => {
    expect(methodOf(['pwd'])).toBe('password');
    expect(methodOf(['pwd', 'otp'])).toBe('password');
    expect(methodOf(['hwk', 'user'])).toBe('passkey');
    expect(methodOf(undefined)).toBe('password');
  });
});
