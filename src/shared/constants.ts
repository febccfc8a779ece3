/** The fee that makes a post featured, in wei (0.01 ETH). */
export const FEATURED_FEE_WEI = 10n ** 16n;
export const FEATURED_FEE_LABEL = "0.01 ETH";

export const WALLET_ADDRESS_REGEX = /^0x[0-9a-fA-F]{40}$/;
export const TX_HASH_REGEX = /^0x[0-9a-fA-F]{64}$/;

/** The reader's own colour mode, as JSON ("dark" or "light"); absent: the system's. */
export const COLOR_MODE_STORAGE_KEY = "colorMode";

export const SESSION_STORAGE_KEY = "userInfo";

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;

export const RESET_TOKEN_TTL_MS = 10 * 60 * 1000;
export const RESET_REDIRECT_DELAY_MS = 5000;
export const TIMEAGO_REFRESH_MS = 60_000;

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

/** The editor's limits: a post's title and (HTML) description, a comment. Imports are held to them too. */
export const POST_TITLE_MAX = 200;
export const POST_DESCRIPTION_MAX = 100_000;
export const COMMENT_MAX = 5000;

/** Hardhat's local chain. */
export const LOCAL_CHAIN_ID = 31337;

/**
 * Addresses an imported list may ask to confirm a subscription (docs/security.md, "Subscribers"): per import, and
 * per author in a day. The rest are skipped; importing the same file again goes on where the caps stopped it.
 */
export const IMPORTED_SUBSCRIBERS_PER_IMPORT = 1000;
export const IMPORTED_SUBSCRIBERS_PER_DAY = 2000;
