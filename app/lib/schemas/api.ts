/**
 * The JSON API's own words (docs/product.md, The JSON API; Rules and messages): what /api answers where no page
 * message applies. The domain messages (AUTH_MESSAGES, VIDEO_MESSAGES, …)
 * are the same as the pages'.
 */
export const API_MESSAGES = {
  noToken: 'No authentication token found',
  badToken: 'Your session has expired. Please log in again.',
  notFound: 'Not found',
  methodNotAllowed: 'Method not allowed',
  badJson: 'The request body must be JSON',
  bodyTooLarge: 'The request body is too large',
  serverError: 'Something went wrong on our side. Please try again.',
  unavailable: 'Lumen is briefly unavailable. Please try again in a few seconds.',
  tooManyRequests: 'Too many requests. Please wait a moment and try again.',
  loginToWatch: 'Please log in to watch this video.',
  thumbnailMissing: 'Thumbnail Missing',
  creatorNotFound: 'Creator Not Found',
  reportNotFound: 'Report not found',
  reportSent: 'Content reported successfully.',
  feedbackSent: 'Thank you for your feedback!',
  adminOk: 'Admin API is working',
  userDeleted: 'User deleted successfully',
  userNotFound: 'User not found',
  ownLikesOnly: 'You can only see your own liked videos',
  ownFollowingOnly: 'You can only see whom you follow yourself',
  ownHistoryOnly: 'You can only see your own history',
  dashboardRole: 'The dashboard is for creators and admins',
  badCategories: 'Please send categories as a JSON list of category names',
  unknownCategory: "Unknown category. Please use a name from the category list, e.g. 'Natural Sciences - Physics'",
} as const

/** Admin report decisions over the API (PUT /api/reports/{id}). */
export const API_REPORT_STATUS_MESSAGE = 'Please choose a status: reviewed, dismissed or removed'
/** A sign-up through the API names a role other than learner or creator (an admin is never self-made). */
export const API_ROLE_MESSAGE = "Please choose a role: 'user' or 'creator'"
/** The answer to an admin review over the API must say yes or no. */
export const API_APPROVED_MESSAGE = 'Please say whether the creator is approved (true or false)'
/** The video card's media check (docs/product.md): a missing or unplayable file. */
export const API_VIDEO_FILE_MISSING = 'Video file not found. This may be a server issue.'
/** The upload's default title (docs/product.md, Data). */
export const DEFAULT_UPLOAD_TITLE = 'Untitled'
