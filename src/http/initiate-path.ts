/** The gateway's one operation (spec 4.1): `POST {base_url}/api/v2/payments/initiates`. */
export const INITIATE_PATH = '/api/v2/payments/initiates';
