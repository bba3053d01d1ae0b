// What the customer's device can do with a dial code. iOS does not dial a `tel:` number holding `*`
// or `#` (Apple's phone-link rules: "the Phone app does not attempt to dial"); Android does, with
// `#` written `%23` (docs/architecture.md, "Dialling from a web page"); a computer cannot dial
// at all, but a phone's camera opens its dialer from a QR code of the same link.

type Device = Pick<Navigator, 'userAgent' | 'platform' | 'maxTouchPoints'>;

/** How the customer dials: a `tel:` link (Android), paste in the Phone app (iOS), or scan a QR code (a computer). */
export type DialWay = 'link' | 'paste' | 'scan';

/**
 * Whether this is iOS or iPadOS: an iPhone, iPad or iPod in the user agent, or a "Mac" with a touch
 * screen, which is how iPadOS's Safari presents itself.
 */
export function isIOS({ userAgent, platform, maxTouchPoints }: Device = navigator): boolean {
  return /\biP(hone|ad|od)\b/.test(userAgent) || (platform === 'MacIntel' && maxTouchPoints > 1);
}

/**
 * Whether this is a computer: no phone in the user agent, no touch screen and no coarse pointer.
 * Asking for a fine pointer instead would miss headless and remote-desktop browsers, which report
 * none; a phone in "desktop site" mode keeps its touch screen, so it still dials.
 */
export function isComputer({ userAgent, maxTouchPoints }: Device = navigator): boolean {
  return !/Android|Mobi|iP(hone|od)/.test(userAgent) && !maxTouchPoints && !matchMedia('(any-pointer: coarse)').matches;
}

export const dialWay = (device: Device = navigator): DialWay =>
  isIOS(device) ? 'paste' : isComputer(device) ? 'scan' : 'link';

/** A `tel:` link that dials `code` where the phone dials such links at all (Android): `#` written `%23`. */
export const dialLink = (code: string): string => `tel:${code.replaceAll('#', '%23')}`;
