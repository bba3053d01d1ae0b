// What the customer's device can do with a dial code. iOS does not dial a `tel:` number holding `*`
// or `#` (Apple's phone-link rules: "the Phone app does not attempt to dial"); Android does, with
// `#` written `%23` (gateway-companion.md §5, "Dialling from a web page").

type Device = Pick<Navigator, 'userAgent' | 'platform' | 'maxTouchPoints'>;

/**
 * Whether this is iOS or iPadOS: an iPhone, iPad or iPod in the user agent, or a "Mac" with a touch
 * screen, which is how iPadOS's Safari presents itself.
 */
export function isIOS({ userAgent, platform, maxTouchPoints }: Device = navigator): boolean {
  return /\biP(hone|ad|od)\b/.test(userAgent) || (platform === 'MacIntel' && maxTouchPoints > 1);
}

/** A `tel:` link that dials `code` where the phone dials such links at all (Android): `#` written `%23`. */
export const dialLink = (code: string): string => `tel:${code.replaceAll('#', '%23')}`;
