// `POST …/api/v2/encrypt/keys` (docs/architecture.md, "The token call"): `{"key":"SECRET.PUBLIC"}` buys a
// token in the gateway's shape; no Authorization header needed.
import { readJsonBody } from '../../contract/request-checks.js';
import { ERROR_STATUS } from '../../contract/error-codes.js';
import { json, labelledError, tokenAnswerBody } from '../answers.js';
import { TOKEN_PATH } from '../../contract/gateway-paths.js';
import { MAX_BODY_BYTES, type SandboxContext, type SandboxRoute } from './route.js';

export function tokenRoute(context: SandboxContext): SandboxRoute {
  return {
    allow: 'POST',
    match: (path) => (path.endsWith(TOKEN_PATH) ? [] : undefined),
    async handle(request) {
      const body = await readJsonBody(request, { maxBytes: MAX_BODY_BYTES });
      if (!body.ok) return labelledError(ERROR_STATUS[body.problem.code], 'Bad Request', body.problem.message);
      const token = context.tokens.issue((body.json as { key?: unknown } | null)?.key);
      return token ? json(200, tokenAnswerBody(token)) : labelledError(400, 'Bad Request', 'Invalid merchant keys.');
    },
  };
}
