// `GET …/api/{v2,v3}/payments/query/{reference}` (docs/architecture.md, "The query"): the payment's
// state in the gateway's codes; an unknown reference is HTTP 500, as the gateway answers it.
import { QUERY_PATH_PATTERN } from '../../contract/gateway-paths.js';
import { failure, json, labelledError, queryAnswerBody } from '../answers.js';
import { authorised, unauthorised, type SandboxContext, type SandboxRoute } from './route.js';

export function queryRoute(context: SandboxContext): SandboxRoute {
  return {
    allow: 'GET',
    match: (path) => {
      const encodedReference = QUERY_PATH_PATTERN.exec(path)?.[2];
      return encodedReference === undefined ? undefined : [encodedReference];
    },
    handle(request, [encodedReference]) {
      if (!authorised(context, request)) return unauthorised(request);
      let reference: string;
      try {
        reference = decodeURIComponent(encodedReference!);
      } catch {
        return failure(400, 'The reference is not valid URL encoding.');
      }
      const payment = context.payments.get(reference);
      return payment ? json(200, queryAnswerBody(payment)) : labelledError(500, 'No transaction found', 'PROCESSING');
    },
  };
}
